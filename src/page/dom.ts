/**
 * How page code reads an element it did not create: any of the form controls, links, labels and images a
 * script asks of "an element" (value, type, labels, control, href…), each maybe absent. Narrower types where
 * the code knows the element; this one where the page decides what it is.
 */
export type Loose = HTMLElement &
  Partial<Pick<HTMLInputElement, 'value' | 'type' | 'labels' | 'disabled' | 'form' | 'checked' | 'alt' | 'placeholder' | 'name' | 'willValidate' | 'validity' | 'validationMessage' | 'selectionStart' | 'selectionEnd' | 'readOnly' | 'min' | 'max' | 'step' | 'valueAsNumber' | 'files' | 'multiple' | 'autocomplete'>> &
  Partial<Pick<HTMLSelectElement, 'options' | 'selectedOptions' | 'selectedIndex'>> &
  Partial<Pick<HTMLOptionElement, 'selected' | 'label' | 'text'>> &
  Partial<Pick<HTMLLabelElement, 'control'>> &
  Partial<Pick<HTMLIFrameElement, 'src' | 'contentDocument'>> &
  Partial<Pick<HTMLFormElement, 'elements' | 'action'>> & { href?: string | SVGAnimatedString };

/** `el` read loosely (see Loose). */
export const loose = (el: Element | null | undefined): Loose | null => (el ?? null) as Loose | null;

/** `n` or the shadow host it belongs to, upwards: true when `container` holds `n` across shadow roots. */
export function holds(container: Node, n: Node | null): boolean {
  for (let c: Node | null = n; c; c = c.parentNode || (c as ShadowRoot).host || null) if (c === container) return true;
  return false;
}

import type { ActionPreview } from '../contract/types';
import { displayText } from './textFold';

/**
 * The preview as a person is shown it. Every string in it may come from the page (an element's name, the
 * title, the sentence built from them): line breaks, bidi overrides (U+202E) and other invisible characters
 * are removed and each is cut, so page text cannot add lines to the dialog, reorder what it says or push the
 * rest out of sight. The decision itself is taken on the unchanged preview.
 */
export function displaySafePreview(preview: ActionPreview | undefined): ActionPreview | undefined {
  if (!preview) return preview;
  const t = preview.target;
  return {
    ...preview,
    message: displayText(preview.message, 300),
    title: preview.title === undefined ? undefined : displayText(preview.title, 120),
    url: preview.url === undefined ? undefined : displayText(preview.url, 500),
    target: t && { ...t, name: t.name === undefined ? undefined : displayText(t.name, 80) },
  };
}

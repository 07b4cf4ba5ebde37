// The outline of the element a step acts on, over a live view's picture of the page. One code for the chat panel's
// live view and the editor-area one (media/liveView.ts): the box comes in the page's CSS pixels (the frame's
// width), the picture may be shown smaller.
export interface Box { x: number; y: number; width: number; height: number }

/** The frame's page width, kept on the picture when a frame arrives (the box is in those pixels). */
export function noteFrameSize(img: HTMLImageElement, width: number, height: number): void {
  img.dataset.w = String(width);
  img.dataset.h = String(height);
}

/** Puts `outline` over the element's place on the picture; hides it with no box or no picture yet. */
export function placeHighlight(outline: HTMLElement, img: HTMLImageElement, box: Box | undefined, label?: string): void {
  const w = Number(img.dataset.w);
  if (!box || !w || !img.clientWidth) {
    outline.hidden = true;
    return;
  }
  const scale = img.clientWidth / w;
  Object.assign(outline.style, {
    left: `${img.offsetLeft + box.x * scale}px`,
    top: `${img.offsetTop + box.y * scale}px`,
    width: `${Math.max(4, box.width * scale)}px`,
    height: `${Math.max(4, box.height * scale)}px`,
  });
  outline.title = label ?? '';
  outline.hidden = false;
}

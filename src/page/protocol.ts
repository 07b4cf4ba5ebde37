// Shapes exchanged between the in-page extractor and the CDP side.

export interface ElementItem {
  id: number;
  role: string;
  name: string;
  /** Name substitute when nothing names the element: icon hint, SVG description, position. */
  hint?: string;
  /** Target of a link (a/area with href) as written; resolved against the frame's `base` by the formatter. */
  href?: string;
  /** State words: `checked`, `value="…"`, … */
  st?: string;
  /** What covers the element at its hit-test points, if anything. */
  cov?: string;
  /** 1 when the element intersects the viewport. */
  vp: 0 | 1;
  /** The whole value when `st` shows it cut (`value="…"(+N chars)`); never a password. */
  full?: string;
}
export interface TextItem {
  t: string;
  /** 1 when some of the text is inside the viewport. */
  vp?: 0 | 1;
}
export interface FrameItem {
  /** Index into the extractor's list of iframe elements of this run. */
  frame: number;
  vp: 0 | 1;
}
/** A landmark section starts (`nav "Primary"`, `main`) or ends (`/nav`). */
export interface SectionItem {
  sec: string;
}
export type PageItem = ElementItem | TextItem | FrameItem | SectionItem;

export interface RunOptions {
  /** Lowest ref number for new elements, honoured only while `doc` is still the frame's document. */
  start: number;
  /** Document the counter belongs to (from the last RunResult): numbering restarts in a new document. */
  doc?: string;
  viewportOnly?: boolean;
  /** Subtree root (a ref number of this frame). */
  root?: number;
  /** The document the root's ref was shown in: in another one the ref means nothing (`otherDocument`). */
  rootDoc?: string;
}

export interface RunResult {
  items: PageItem[];
  next: number;
  frames: number;
  /** Elements that may hide a closed shadow root and were not asked about yet. */
  hosts?: number;
  ms: number;
  count: number;
  url: string;
  /** The document's base URL (links are resolved against it). */
  base?: string;
  title: string;
  missingRoot?: boolean;
  /** The root's ref was shown in an earlier document of this frame. */
  otherDocument?: boolean;
  /** This document's identity (its time origin): refs are numbered per document. */
  doc?: string;
  /** DOM changes counted in this frame's world so far (page/changes.ts). */
  changes?: string;
}

export interface SummaryResult {
  url: string;
  title: string;
  viewport: [number, number];
  scroll: [number, number];
  size: [number, number];
  counts: Record<string, number>;
  focused: string;
  dialog: string;
  text: string;
}

export interface DetailsResult {
  id: number;
  missing?: boolean;
  tag?: string;
  attrs?: Record<string, string>;
  selector?: string;
  xpath?: string;
  shadowHost?: string;
  bbox?: [number, number, number, number];
  parentText?: string;
  children?: number;
  href?: string;
  text?: string;
  /** The whole value of a text control (never a password). */
  value?: string;
}

import type { TargetFingerprint } from '../contract/types';

/**
 * The frame of a recorded element, in two forms: `frame` is what replay and people read (`main` or the
 * frame's URL, as the snapshot records it), `frameId` the raw CDP frame id, kept for the JSON only.
 */

/** `main` or a URL: something a person (and replay after a reload) can use; a raw CDP id or `f3` is not. */
export function isReadableFrame(frame: string | undefined): boolean {
  return frame === 'main' || /^[a-z][\w+.-]*:/i.test(frame ?? '');
}

/**
 * The target an audit step records: what the preview saw before the action, plus what the action learned.
 * The action reports the raw frame id; the preview's `main`/URL wins, and a raw id that is the tab's own
 * (the top frame's id is its target id) becomes `main`.
 */
export function recordedTarget(preview: TargetFingerprint | undefined, result: TargetFingerprint | undefined, mainFrameId: string | undefined): TargetFingerprint | undefined {
  if (!preview && !result) return undefined;
  const t: TargetFingerprint = { ...preview, ...definedOnly(result) };
  // What the policy read of the element (texts, icon words, a frame's text) is for the decision, not the log.
  delete (t as { facts?: unknown }).facts;
  const frames = [preview?.frame, result?.frame].filter((f): f is string => !!f);
  const raw = frames.find((f) => !isReadableFrame(f));
  const readable = frames.find(isReadableFrame);
  if (readable) t.frame = readable;
  else if (raw) t.frame = raw === mainFrameId ? 'main' : raw;
  if (raw && /^[0-9A-F]{16,}$/i.test(raw)) t.frameId = raw;
  return t;
}

function definedOnly<T extends object>(o: T | undefined): Partial<T> {
  return Object.fromEntries(Object.entries(o ?? {}).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** "main page", "frame https://ads.example/slot" or, for an old record with only a raw id, "a frame inside the page". */
export function frameWords(frame: string | undefined): string | undefined {
  if (!frame) return undefined;
  if (frame === 'main') return 'main page';
  if (!isReadableFrame(frame)) return 'a frame inside the page';
  try {
    const u = new URL(frame);
    return `frame ${u.origin !== 'null' ? `${u.origin}${u.pathname}` : `${u.protocol}${u.pathname}`}`;
  } catch {
    return `frame ${frame}`;
  }
}

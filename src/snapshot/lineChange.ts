// What changed on an element line between two looks, said once: `~ [4] "Username" value="ada"` rather than the
// whole line twice. A focus move alone is no change (every click and keystroke moves it).

/** One state word, or a group that reads as one: `value="a b"`, `options=[A|B] (3 of 9; …)`, `2 of 5`, `sorted ascending`. */
const WORD = /row=\d+ col=\d+ of \d+x\d+|\d+ of \d+|sorted \w+|covered-by \S+|[\w-]+=(?:"(?:[^"\\]|\\.)*"(?:\(\+\d+ chars\))?|\[[^\]]*\](?: \([^)]*\))?|\S+)|\S+/g;

/** Words that answer the same question, so one replaces the other (`collapsed` after `expanded`). */
const SAME_KEY: Record<string, string> = { collapsed: 'expanded', mixed: 'checked', playing: 'paused' };

function keyOf(word: string): string {
  if (/^row=/.test(word)) return 'grid';
  if (/^\d+ of \d+$/.test(word)) return 'position';
  if (/^(sorted|covered-by) /.test(word)) return word.split(' ')[0];
  const eq = /^([\w-]+)=/.exec(word);
  return eq ? eq[1] : (SAME_KEY[word] ?? word);
}

function words(states: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const w of states.match(WORD) ?? []) if (w !== 'focused') out.set(keyOf(w), w);
  return out;
}

/** How a state that went away reads: `not checked`, `value=""`, `not covered`; nothing for a lost position. */
function gone(key: string, word: string): string | undefined {
  if (key === 'position' || key === 'grid') return undefined;
  if (key === 'covered-by') return 'not covered';
  if (key === 'sorted') return 'not sorted';
  if (word.startsWith(`${key}=`)) return `${key}=""`;
  return `not ${word}`;
}

/** The state words that differ, as they read now; `said` (the action's own line) drops values it already quotes. */
export function changedStates(before: string, now: string, said = ''): string[] {
  const a = words(before);
  const b = words(now);
  const out: string[] = [];
  for (const [k, w] of b) {
    if (a.get(k) === w) continue;
    const quoted = /^[\w-]+=("(?:[^"\\]|\\.)*")$/.exec(w)?.[1];
    if (!(quoted && said.includes(quoted))) out.push(w);
  }
  for (const [k, w] of a) {
    if (b.has(k)) continue;
    const g = gone(k, w);
    if (g) out.push(g);
  }
  return out;
}

export interface LineParts {
  /** `[4] textbox "Username"` (with hint and link target). */
  head: string;
  /** The state words after it, `covered-by …` included. */
  states: string;
  /** What names it in a shorter line: `"Username"`, or the role of an unnamed element. */
  label: string;
}

/** `~ [4] "Username" value="ada"`; undefined when nothing but focus (or what the action already said) changed. */
export function changeLine(ref: string, before: LineParts, now: LineParts, said?: string): string | undefined {
  const states = changedStates(before.states, now.states, said);
  if (before.head !== now.head) {
    // Renamed or re-targeted: the new head in full, what the name was, and the states that changed.
    const was = before.label !== now.label ? ` (was ${before.label})` : '';
    return `~ ${now.head}${states.length ? ` ${states.join(' ')}` : ''}${was}`;
  }
  return states.length ? `~ [${ref}] ${now.label} ${states.join(' ')}` : undefined;
}

// The scripted agent: no model, the same steps for every server. It keeps the elements the results showed it
// (ref, role, name) since the page last changed, and asks for a snapshot only when the element or the text a
// step needs is not in what it was shown — as a careful model would. Every result's text is counted in o200k
// tokens, which is what a model reads.
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';

export class TaskFailed extends Error {}

export class Agent {
  constructor(server, client, origin, log) {
    Object.assign(this, { server, client, origin, log });
    this.calls = 0;
    this.tokens = 0;
    this.view = new Map();
    this.last = '';
  }

  async call(kind, ...args) {
    const [tool, input] = this.server.calls[kind](...args);
    const r = await this.client.callTool({ name: tool, arguments: input }, undefined, { timeout: 90_000 });
    const text = r.content.filter((c) => c.type === 'text').map((c) => c.text).join('\n');
    this.calls++;
    this.tokens += countTokens(text);
    this.log?.(`>>> ${tool} ${JSON.stringify(input)}${r.isError ? ' (error)' : ''} — ${countTokens(text)} tokens\n${text}\n`);
    this.last = text;
    if (!r.isError) this.learn(kind, text);
    return { text, isError: !!r.isError };
  }

  /** Updates the elements the agent knows from a result's lines. */
  learn(kind, text) {
    if (kind === 'snapshot' || this.server.resets(kind, text)) this.view.clear();
    for (const line of text.split('\n')) {
      const gone = this.server.removedRe?.exec(line);
      if (gone) {
        this.view.delete(gone[1]);
        continue;
      }
      const m = this.server.lineRe.exec(line);
      if (!m) continue;
      const el = this.server.pick(m);
      const known = this.view.get(el.ref);
      this.view.set(el.ref, { ref: el.ref, role: el.role ?? known?.role, name: el.name ?? known?.name ?? '' });
    }
  }

  find(role, name) {
    return [...this.view.values()].find((e) => role.test(e.role ?? '') && name.test((e.name ?? '').trim()));
  }

  /** The element, from what the agent was shown or else from a fresh snapshot. */
  async element(role, name) {
    let el = this.find(role, name);
    if (!el) {
      await this.call('snapshot');
      el = this.find(role, name);
    }
    if (!el) throw new TaskFailed(`no ${role} ${name} on the page`);
    return el;
  }

  /** Acts on an element; a refused ref (stale, gone) costs a snapshot and one more try. */
  async act(kind, role, name, ...args) {
    const r = await this.call(kind, await this.element(role, name), ...args);
    if (!r.isError) return r;
    this.view.clear();
    const again = await this.call(kind, await this.element(role, name), ...args);
    if (again.isError) throw new TaskFailed(`${kind} ${name} failed: ${again.text.slice(0, 200)}`);
    return again;
  }

  open(path) {
    return this.call('navigate', this.origin + path);
  }
  click(role, name) {
    return this.act('click', role, name);
  }
  type(role, name, text) {
    return this.act('type', role, name, text);
  }
  select(role, name, label) {
    return this.act('select', role, name, label);
  }

  /** Text the last result showed, or else a snapshot shows; null when neither does. */
  async see(re) {
    const m = re.exec(this.last);
    if (m) return m;
    await this.call('snapshot');
    return re.exec(this.last);
  }

  async expect(re) {
    if (!(await this.see(re))) throw new TaskFailed(`never saw ${re}`);
  }
}

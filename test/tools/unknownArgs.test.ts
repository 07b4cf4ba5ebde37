// Arguments a tool does not take are named (zod's objects drop them silently), at any depth, on the real schemas.
import assert from 'node:assert/strict';
import { z } from 'zod';
import { browserFillForm } from '../../src/tools/fillForm';
import { allTools } from '../../src/tools/registry';
import { describeUnknownArgs, unknownArgs } from '../../src/runtime/unknownArgs';

describe('tools: unknown arguments', () => {
  it('names a top-level guess and what the tool takes', () => {
    const type = allTools.find((t) => t.name === 'browser_type')!;
    const bad = unknownArgs(type.schema, { ref: '1', text: 'x', append: true });
    assert.deepEqual(bad.map((b) => b.path), ['append']);
    assert.match(describeUnknownArgs('browser_type', bad), /no parameter "append" \(it takes ref, text, clear, submit, slowly\)/);
  });

  it('looks into arrays of objects: a field given a label instead of a ref', () => {
    const bad = unknownArgs(browserFillForm.schema, { fields: [{ ref: '1', value: 'a' }, { label: 'Email', value: 'b' }] });
    assert.deepEqual(bad.map((b) => b.path), ['fields.1.label']);
    assert.match(describeUnknownArgs('browser_fill_form', bad), /"fields\.1\.label" \(that object takes ref, value/);
  });

  it('every tool: its declared parameters pass, an unknown one is named', () => {
    for (const t of allTools) {
      const declared = Object.keys((z.toJSONSchema(t.schema) as any).properties ?? {});
      assert.deepEqual(unknownArgs(t.schema, Object.fromEntries(declared.map((k) => [k, undefined]))), [], t.name);
      assert.deepEqual(unknownArgs(t.schema, { zzz: 1 }).map((b) => b.path), ['zzz'], t.name);
    }
  });
});

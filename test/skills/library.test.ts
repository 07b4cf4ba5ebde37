import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { once } from 'node:events';
import { SkillLibrary } from '../../src/skills/library';
import { parseSkill } from '../../src/skills/parse';
import { skillsText } from '../../src/skills/present';
import { siteMatches } from '../../src/skills/sites';
import { tempSkillsDir, writeSkill } from './helpers';

describe('skills: SKILL.md files, site globs and the search index', () => {
  it('parses front matter (lists as YAML or as one string) and keeps the steps', () => {
    const s = parseSkill('---\nname: "Shop: checkout"\ndescription: Buy the cart\nsites: "shop.test, *.shop.test/cart*"\nallowed-tools: browser_click browser_snapshot\nrisk: pays money\n---\n1. Open the cart.\n2. Click Pay.\n', '/x/SKILL.md', 'workspace');
    assert.equal(s.name, 'Shop: checkout');
    assert.deepEqual(s.sites, ['shop.test', '*.shop.test/cart*']);
    assert.deepEqual(s.allowedTools, ['browser_click', 'browser_snapshot']);
    assert.equal(s.risk, 'pays money');
    assert.equal(s.body, '1. Open the cart.\n2. Click Pay.');
  });

  it('reads its own fields under metadata (where VS Code accepts them) as well as at the top level', () => {
    const meta = parseSkill('---\nname: shop-checkout\ndescription: Buy the cart\nmetadata:\n  sites: "shop.test, *.shop.test/cart*"\n  allowed-tools: browser_click browser_snapshot\n  risk: pays money\n  author: someone\n---\n1. Pay.\n', '/x/SKILL.md', 'workspace');
    assert.deepEqual([meta.sites, meta.allowedTools, meta.risk], [['shop.test', '*.shop.test/cart*'], ['browser_click', 'browser_snapshot'], 'pays money']);
    // Written in both places: sites add up, tools must be allowed in both (a second list never widens the first).
    const both = parseSkill('---\nname: x\ndescription: y\nsites: a.test\nallowed-tools: browser_click browser_type\nmetadata:\n  sites: b.test\n  allowed-tools: browser_click\n---\n1. Go.\n', '/x/SKILL.md', 'workspace');
    assert.deepEqual([both.sites, both.allowedTools], [['b.test', 'a.test'], ['browser_click']]);
    const disjoint = parseSkill('---\nname: x\ndescription: y\nallowed-tools: browser_type\nmetadata:\n  allowed-tools: browser_click\n---\n1. Go.\n', '/x/SKILL.md', 'workspace');
    assert.deepEqual(disjoint.allowedTools, [], 'no tool in both: nothing allowed, not everything');
    assert.throws(() => parseSkill('---\nname: x\ndescription: y\nmetadata:\n  sites: 3\n---\n1. Go.\n', 'p', 'global'), /metadata\.sites/);
  });

  it('says what is wrong with a broken SKILL.md', () => {
    assert.throws(() => parseSkill('name: x\n', 'p', 'global'), /no front matter/);
    assert.throws(() => parseSkill('---\nname: a: b\n---\nsteps', 'p', 'global'), /not valid YAML \(put values containing ": " in quotes\)/);
    assert.throws(() => parseSkill('---\nname: x\n---\nsteps', 'p', 'global'), /description/);
    assert.throws(() => parseSkill('---\nname: x\ndescription: y\n---\n', 'p', 'global'), /no steps/);
  });

  it('site globs: host globs as the safety settings write them, plus a path glob', () => {
    assert.ok(siteMatches('github.com', 'https://github.com/a/b'));
    assert.ok(siteMatches('*.wikipedia.org', 'https://zh.wikipedia.org/wiki/X'));
    assert.ok(siteMatches('github.com/*/*/issues*', 'https://github.com/o/r/issues/new'));
    assert.ok(!siteMatches('github.com/*/*/issues*', 'https://github.com/o/r/pulls'));
    assert.ok(siteMatches('127.0.0.1:*', 'http://127.0.0.1:4711/x'));
    assert.ok(!siteMatches('github.com', 'https://gitlab.com/'));
    assert.ok(!siteMatches('github.com', 'https://github.com.evil.test/'), 'a look-alike host is another site');
    assert.ok(!siteMatches('*', 'about:blank'));
    assert.ok(!siteMatches('github.com', undefined));
  });

  describe('search', () => {
    const dir = tempSkillsDir();
    writeSkill(dir, 'gh', { name: 'GitHub: open an issue', description: 'Report a bug in a repository by opening a new issue', sites: ['github.com'], steps: '1. Issues tab\n2. New issue\n3. Title and description' });
    writeSkill(dir, 'wiki', { name: 'Wikipedia lookup', description: 'Find an article and read its summary', sites: ['*.wikipedia.org'], allowedTools: ['browser_navigate', 'browser_snapshot'], steps: '1. Search\n2. Read the lead' });
    writeSkill(dir, 'tb', { name: '淘宝：搜索商品', description: '在淘宝上搜索商品并按价格排序', sites: ['*.taobao.com'], steps: '1. 在搜索框输入商品名\n2. 点击“价格”排序' });
    writeSkill(dir, 'any', { name: 'Cookie banners', description: 'Dismiss cookie consent banners before acting', steps: '1. Click "Reject all" or "Only necessary".' });
    writeSkill(dir, 'broken', '---\nname: broken\n---\n');
    const lib = new SkillLibrary([{ path: dir, source: 'workspace' }]);
    after(() => {
      lib.dispose();
      rmSync(dir, { recursive: true, force: true });
    });

    it('finds skills by task words with BM25, in English and Chinese', async () => {
      assert.equal((await lib.search({ query: 'file a bug report about a crash' }))[0]?.skill.name, 'GitHub: open an issue');
      assert.equal((await lib.search({ query: '帮我在淘宝搜索机械键盘，按价格排序' }))[0]?.skill.name, '淘宝：搜索商品');
      assert.equal((await lib.search({ query: 'sort products by price on taobao' }))[0]?.skill.name, '淘宝：搜索商品', 'the site name from sites is searchable');
      assert.deepEqual(await lib.search({ query: 'order a pizza' }), [], 'nothing relevant: nothing added to the prompt');
    });

    it('ranks skills for the current page first; siteOnly drops skills for other sites', async () => {
      const hits = await lib.search({ query: 'read the summary', url: 'https://github.com/o/r' });
      assert.equal(hits[0].skill.name, 'GitHub: open an issue');
      assert.ok(hits[0].siteMatch);
      const onSite = await lib.search({ query: 'read an article summary', url: 'https://github.com/o/r', siteOnly: true });
      assert.ok(!onSite.some((h) => h.skill.name === 'Wikipedia lookup'), 'a skill for another site is not retrieved');
      assert.ok((await lib.search({ query: 'cookie consent banner', url: 'https://github.com/', siteOnly: true })).some((h) => h.skill.name === 'Cookie banners'), 'skills for any site stay');
    });

    it('lists broken files as problems and keeps the rest', async () => {
      await lib.search({ query: 'x' });
      assert.equal(lib.skills.length, 4);
      assert.equal(lib.problems.length, 1);
      assert.match(lib.problems[0].message, /description/);
    });

    it('allowed-tools: the union of the matching skills that declare it, nothing elsewhere', async () => {
      assert.deepEqual([...(await lib.allowedToolsFor('https://en.wikipedia.org/wiki/A'))!.tools], ['browser_navigate', 'browser_snapshot']);
      assert.equal(await lib.allowedToolsFor('https://github.com/'), undefined);
    });

    it('the text a model reads is fenced, says where the skill came from, and caps the steps', async () => {
      const hits = await lib.search({ query: 'taobao', url: 'https://s.taobao.com/search' });
      const t = skillsText(hits, { maxSteps: 10 });
      assert.match(t, /<user-skill source="workspace">\nname: 淘宝：搜索商品/);
      assert.match(t, /\(matches the current page\)/);
      assert.match(t, /more characters in the skill file/);
    });
  });

  it('picks up a skills folder created after start (watching its parent until it exists)', async function () {
    this.timeout(10_000);
    const root = tempSkillsDir();
    const dir = join(root, '.browser-agent', 'skills');
    const lib = new SkillLibrary([{ path: dir, source: 'workspace' }], { watch: true, debounceMs: 50 });
    try {
      assert.equal((await lib.search({ query: 'invoice' })).length, 0);
      mkdirSync(join(root, '.browser-agent'));
      await once(lib, 'changed');
      const changed = once(lib, 'changed');
      writeSkill(dir, 'inv', { name: 'Download an invoice', description: 'Get the latest invoice PDF', steps: '1. Billing, Invoices.' });
      await changed;
      while (!lib.skills.length) await once(lib, 'changed');
      assert.equal((await lib.search({ query: 'invoice' }))[0]?.skill.name, 'Download an invoice');
    } finally {
      lib.dispose();
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('rebuilds when a SKILL.md is added, changed or removed (a watcher, not a poll)', async function () {
    this.timeout(10_000);
    const dir = tempSkillsDir();
    const lib = new SkillLibrary([{ path: dir, source: 'global' }], { watch: true, debounceMs: 50 });
    try {
      assert.equal((await lib.search({ query: 'flights' })).length, 0);
      const changed = once(lib, 'changed');
      const file = writeSkill(dir, 'air', { name: 'Book a flight', description: 'Search flights and compare fares', steps: '1. From, to, date.' });
      await changed;
      assert.equal((await lib.search({ query: 'flights' }))[0]?.skill.name, 'Book a flight');
      const edited = once(lib, 'changed');
      writeFileSync(file, '---\nname: Book a train\ndescription: Search trains\n---\n1. From, to.\n');
      await edited;
      assert.equal((await lib.search({ query: 'train' }))[0]?.skill.name, 'Book a train');
      const removed = once(lib, 'changed');
      rmSync(file);
      await removed;
      assert.equal(lib.skills.length, 0);
    } finally {
      lib.dispose();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

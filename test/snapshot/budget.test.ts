import assert from 'node:assert/strict';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { FOLD_MARK, MIN_FOLDED_TOKENS, MIN_TEXT_BEFORE_FOLD, continuationNote, estimateTokens, foldNote, foldPoint, offsetNote, takePage, wrapLine, type BudgetLine } from '../../src/snapshot/budget';
import { linkTargets } from '../../src/snapshot/links';

const PROSE =
  'The committee met on Tuesday, 12 March 2024, to review the budget. Members discussed the proposal at length; several objected to the cost (estimated at $4.2 million) and asked for a revised plan by April.';

describe('snapshot: page budget and link targets (no browser)', () => {
  it('estimates o200k tokens a little high, never far off', () => {
    const samples = [
      PROSE,
      '[12] button "Submit"\n[13] link "World news" →/news/world\n[14] textbox "Email" required type=email',
      'Die Bundesregierung hat am Mittwoch beschlossen, die Förderung für erneuerbare Energien auszuweiten.',
      '東京都は水曜日、新しい交通計画を発表した。計画には自転車道の拡張が含まれる。',
      'Правительство объявило в среду о новых мерах поддержки для малого бизнеса и семей.',
      'Η κυβέρνηση ανακοίνωσε την Τετάρτη νέα μέτρα στήριξης για τις μικρές επιχειρήσεις.',
      'Vláda ve středu oznámila nová opatření na podporu malých podniků a rodin.',
      'Section 12340 text\n[12345] checkbox "Option 12347"\n[12346] link "Item 12345" →/item/12345',
    ];
    for (const s of samples) {
      const real = countTokens(s);
      const est = estimateTokens(s);
      assert.ok(est >= real * 0.95 && est <= real * 1.6, `estimate ${est} vs o200k ${real} for ${JSON.stringify(s.slice(0, 40))}`);
    }
  });

  it('counts an ASCII line by its fast scan exactly as the general pattern counts it', () => {
    // A non-ASCII word after a newline sends the whole string down the general path without touching the
    // count of the ASCII part, so both paths must agree on every ASCII string.
    let seed = 7;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const alphabet = 'abcXYZ0123456789 \t\n\r\v\f.,;:!?"\'()[]{}<>/\\|@#$%^&*-_=+~`→\x00\x01\x1f\x7f';
    const tail = estimateTokens('é');
    for (let i = 0; i < 3000; i++) {
      let s = '';
      for (let n = Math.floor(rand() * 40); n > 0; n--) s += rand() < 0.3 ? 'abcdefghij'.slice(0, 1 + Math.floor(rand() * 10)) : alphabet[Math.floor(rand() * alphabet.length)];
      s = s.replace(/→/g, '');
      assert.equal(estimateTokens(s + '\né'), estimateTokens(s) + 1 + tail, JSON.stringify(s));
    }
  });

  it('wraps a long paragraph at sentence ends into lines that join back to the whole text', () => {
    const long = Array.from({ length: 40 }, () => PROSE).join(' ');
    const parts = wrapLine(long, 1000);
    assert.ok(parts.length > 1);
    for (const p of parts) assert.ok(p.length <= 1000, `piece of ${p.length} chars`);
    for (const p of parts.slice(0, -1)) assert.match(p, /[.!?]$/, 'cut at a sentence end');
    assert.equal(parts.join(' '), long);
    // No sentence end in reach: cut at a space; no space: cut hard, still nothing lost.
    const words = Array.from({ length: 500 }, (_, i) => `word${i}`).join(' ');
    assert.equal(wrapLine(words, 300).join(' '), words);
    const blob = 'x'.repeat(2500);
    assert.equal(wrapLine(blob, 1000).join(''), blob);
    assert.deepEqual(wrapLine('short'), ['short']);
  });

  it('pages whole lines in order, names the offset to read on, and the pages cover every line once', () => {
    const lines: BudgetLine[] = [];
    for (let i = 0; i < 300; i++) {
      lines.push({ text: `Paragraph ${i} says something about topic ${i}.` });
      lines.push({ text: `[${i}] button "B${i}"`, element: true });
    }
    const seen: string[] = [];
    let offset = 0;
    let calls = 0;
    for (;;) {
      const p = takePage(lines, 500, offset);
      calls++;
      assert.ok(estimateTokens(p.body) <= 500, 'within budget');
      seen.push(...p.body.split('\n'));
      const note = continuationNote(p, 500, '');
      if (offset) assert.match(offsetNote(p)!, new RegExp(`^Lines ${offset + 1}–${p.to} of 600`));
      if (!note) {
        assert.equal(p.to, 600);
        break;
      }
      assert.match(note, /Read on: browser_snapshot with offset=(\d+)/);
      assert.match(note, /elements\)/);
      offset = Number(/offset=(\d+)/.exec(note)![1]);
      assert.equal(offset, p.to);
    }
    assert.ok(calls > 3);
    assert.deepEqual(seen, lines.map((l) => l.text));
  });

  it('folds text past the fold point, keeps every element, heading and section, and the note reads the text on', () => {
    const lines: BudgetLine[] = [{ text: '[nav]' }, { text: '[1] link "Home"', element: true }, { text: '# Story', foldable: false }];
    for (let i = 0; i < 200; i++) {
      lines.push({ text: `Paragraph ${i} says something about topic ${i}, at some length to fill the page.`, foldable: true });
      if (i % 20 === 0) lines.push({ text: `## Part ${i}` });
      if (i % 10 === 0) lines.push({ text: `[${i + 2}] button "B${i}"`, element: true });
    }
    lines.push({ text: '[footer]' }, { text: '[999] link "Contact"', element: true });
    const fold = foldPoint(lines, 300)!;
    assert.ok(fold, 'a long text folds');
    assert.ok(lines[fold.at].foldable, 'the fold starts at a text line');
    const before = lines.slice(0, fold.at).reduce((n, l) => n + estimateTokens(l.text) + 1, 0);
    const text = lines.slice(0, fold.at).filter((l) => l.foldable).reduce((n, l) => n + estimateTokens(l.text) + 1, 0);
    assert.ok(before + estimateTokens(lines[fold.at].text) + 1 > 300 && text >= 300 && text - 300 < 40, `${before} tokens (${text} of text) shown before the fold`);
    const p = takePage(lines, 16_000, 0, fold);
    const shown = p.body.split('\n');
    assert.equal(p.to, lines.length, 'nothing cut by the budget');
    assert.equal(shown[fold.at], FOLD_MARK, 'the mark stands where the text stops');
    assert.deepEqual(shown.slice(0, fold.at), lines.slice(0, fold.at).map((l) => l.text));
    assert.deepEqual(shown.slice(fold.at + 1), lines.slice(fold.at).filter((l) => !l.foldable).map((l) => l.text), 'every element, heading and section after the fold, in order');
    assert.equal(fold.lines, lines.slice(fold.at).filter((l) => l.foldable).length);
    assert.ok(estimateTokens(p.body) < 1000, `${estimateTokens(p.body)} tokens`);
    const note = foldNote(p, '')!;
    assert.match(note, new RegExp(`^\\[Page text folded after line ${fold.at}: ${fold.lines} lines of text \\(~[\\d,]+ tokens\\) are not shown; every element, heading and section is\\. Read on: browser_snapshot with offset=${fold.at} `));
    // Reading on from the fold shows the rest of the page with all its text.
    const rest = takePage(lines, 16_000, fold.at);
    assert.deepEqual(rest.body.split('\n'), lines.slice(fold.at).map((l) => l.text));
  });

  it('does not fold a page whose text past the fold is short, nor when the budget cuts before the fold', () => {
    const short: BudgetLine[] = [{ text: 'word '.repeat(200), foldable: true }, { text: 'A closing line.', foldable: true }];
    assert.equal(foldPoint(short, 150), undefined, `less than ${MIN_FOLDED_TOKENS} tokens would be folded`);
    assert.equal(foldPoint(short, 0), undefined, '0 never folds');
    const long: BudgetLine[] = Array.from({ length: 400 }, (_, i) => ({ text: `Line ${i} of the article, with a few words more.`, foldable: true }));
    const fold = foldPoint(long, 2000)!;
    assert.ok(fold);
    const p = takePage(long, 500, 0, fold);
    assert.equal(p.fold, undefined, 'the budget cut before the fold: no fold to report');
    assert.equal(foldNote(p, ''), undefined);
    assert.match(continuationNote(p, 500, '')!, new RegExp(`offset=${p.to}\\.`));
  });

  it('a page whose menus fill the fold point still shows some of its text before folding', () => {
    const lines: BudgetLine[] = [{ text: '[nav]' }];
    for (let i = 0; i < 400; i++) lines.push({ text: `[${i}] link "Section ${i}" →/section/${i}`, element: true });
    lines.push({ text: '[main]' }, { text: '# The headline' });
    for (let i = 0; i < 300; i++) lines.push({ text: `Sentence ${i} of the article tells the story a little further.`, foldable: true });
    const before = lines.slice(0, 402).reduce((n, l) => n + estimateTokens(l.text) + 1, 0);
    assert.ok(before > 3000, `the menu alone is ${before} tokens`);
    const fold = foldPoint(lines, 3000)!;
    assert.ok(fold);
    const shownText = lines.slice(0, fold.at).filter((l) => l.foldable).reduce((n, l) => n + estimateTokens(l.text) + 1, 0);
    assert.ok(shownText >= MIN_TEXT_BEFORE_FOLD && shownText < MIN_TEXT_BEFORE_FOLD + 40, `${shownText} tokens of the article shown`);
    // A fold point below that minimum is the user's choice: it holds.
    const early = foldPoint(lines, 200)!;
    assert.ok(lines.slice(0, early.at).filter((l) => l.foldable).reduce((n, l) => n + estimateTokens(l.text) + 1, 0) < 240);
  });

  it('a budget cut after the fold names both: the fold reads the text, the cut the elements left', () => {
    const lines: BudgetLine[] = [];
    for (let i = 0; i < 400; i++) {
      lines.push({ text: `Paragraph ${i} says something about topic ${i}.`, foldable: true });
      lines.push({ text: `[${i}] button "B${i}"`, element: true });
    }
    const fold = foldPoint(lines, 200)!;
    const p = takePage(lines, 1500, 0, fold);
    assert.ok(p.fold && p.to < lines.length && p.to > fold.at);
    const shown = p.body.split('\n');
    assert.ok(shown.slice(fold.at + 1).every((l) => /^\[\d+\] button/.test(l)), 'only elements after the fold');
    assert.match(foldNote(p, ', maxTokens=1500')!, new RegExp(`are not shown; elements, headings and sections are, up to the cut below\\. Read on: browser_snapshot with offset=${fold.at}, maxTokens=1500 `));
    assert.match(continuationNote(p, 1500, ', maxTokens=1500')!, new RegExp(`offset=${p.to}, maxTokens=1500\\.`));
  });

  it('always shows at least one line, so reading on advances even with a tiny budget', () => {
    const p = takePage([{ text: 'a '.repeat(400) }, { text: 'b' }], 10, 0);
    assert.equal(p.to, 1);
    assert.equal(takePage([{ text: 'a' }], 10, 5).to, 1);
  });

  it('link targets: relative on the same origin, short for others, full paths and queries only where they tell links apart', () => {
    const page = 'https://news.example/world/europe?edition=uk';
    const t = linkTargets(
      [
        { name: 'Abroad', href: 'https://news.example/world' },
        { name: 'BBC', href: 'https://www.bbc.co.uk/news/world' },
        { name: 'Page 1', href: 'https://news.example/list?page=1&sort=new' },
        { name: 'Next', href: 'https://news.example/list?page=2' },
        { name: 'Next', href: 'https://news.example/list?page=3' },
        { name: 'Top', href: 'https://news.example/world/europe?edition=uk#top' },
        { name: 'Run', href: 'javascript:void(0)' },
        { name: 'Mail', href: 'mailto:a@b.c' },
        { name: 'Home', href: '/' },
        { name: 'Long', href: 'https://news.example/' + 'a'.repeat(200) },
        { name: 'Story', href: 'https://www.nytimes.com/2017/01/12/business/dealbook/justice-department-corporate-crime.html?action=click' },
        { name: 'Read more', href: 'https://news.example/2017/01/12/business/first-story-about-things.html' },
        { name: 'Read more', href: 'https://news.example/2017/01/12/business/second-story-about-other-things.html' },
      ],
      page,
    );
    assert.deepEqual(t.slice(0, 9), ['/world', 'bbc.co.uk/news/world', '/list', '/list?page=2', '/list?page=3', '#top', undefined, 'mailto:a@b.c', '/']);
    assert.ok(t[9]!.endsWith('…') && t[9]!.length <= 30, t[9]);
    assert.equal(t[10], 'nytimes.com/2017/01/12/business/…');
    assert.deepEqual(t.slice(11), ['/2017/01/12/business/first-story-about-things.html', '/2017/01/12/business/second-story-about-other-things.html']);
  });

  it('link targets: path segments that only spell the name become …, a share link keeps its address and a short query', () => {
    const page = 'https://en.example/wiki/Matrix';
    const t = linkTargets(
      [
        { name: 'Max Born', href: 'https://en.example/wiki/Max_Born' },
        { name: 'Orders', href: 'https://en.example/orders' },
        { name: 'Item 13', href: 'https://en.example/item/13' },
        { name: 'Daniel Kahn Gillmor', href: 'https://other.example/bio/daniel-kahn-gillmor' },
        { name: 'World news', href: 'https://other.example/news/world.html' },
        { name: 'Mail us', href: 'mailto:desk@en.example?subject=' + 'Long%20subject%20'.repeat(20) },
        { name: 'Share', href: 'https://twitter.example/share?url=' + 'https%3A%2F%2Fen.example%2Fa'.repeat(5) },
        { name: 'Share', href: 'https://twitter.example/share?url=' + 'https%3A%2F%2Fen.example%2Fb'.repeat(5) },
        { name: 'Same', href: 'https://en.example/same' },
        { name: 'Same', href: 'https://en.example/same' },
      ],
      page,
    );
    assert.deepEqual(t.slice(0, 6), ['/wiki/…', undefined, undefined, 'other.example/bio/…', 'other.example/…', 'mailto:desk@en.example']);
    for (const s of t.slice(6, 8)) assert.ok(s!.startsWith('twitter.example/share?url=') && s!.length < 70, s);
    assert.notEqual(t[6], t[7]);
    assert.deepEqual(t.slice(8), [undefined, undefined]);
  });

  it('link targets: a root-relative path read without the URL parser gives what the parser gives', () => {
    const page = 'https://en.example/wiki/Matrix?x=1';
    const paths = [
      '/wiki/Matrix?x=1#History', '/wiki/Matrix?x=1', '/wiki/Matrix#', '/a/b?', '/a/./b', '/a/../b', '/a/%2e%2E/b', '/a b', '/a%zz',
      '/a%20b', "/q?it's", '/q?a=1&b=2#f', '/q?a=1&b=2#g', '/x/y/z/very/long/path/that/is/cut/2017/01/12', '/', '/#top', '/%41', '/é',
      '/wiki/Max_Born', '/item/13', '/a//b', '/a\\b', '/caf%C3%A9?x=<y>', '/a:b@c!$&()*+,;=~-._', '/p?q?r#s#t',
    ];
    const names = ['History', 'Matrix', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'x', 'q', 'q', 'q', 'x', 'Home', 'Top', 'A', 'e', 'Max Born', 'Item 13', 'x', 'x', 'x', 'x', 'x'];
    const rel = linkTargets(paths.map((href, i) => ({ name: names[i], href })), page);
    const abs = linkTargets(paths.map((href, i) => ({ name: names[i], href: 'https://en.example' + href })), page);
    assert.deepEqual(rel, abs);
    // and with a <base href> on the same origin elsewhere on the site
    const base = 'https://en.example/other/dir/';
    assert.deepEqual(linkTargets(paths.map((href, i) => ({ name: names[i], href })), page, base), abs);
  });
});

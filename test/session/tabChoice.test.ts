import assert from 'node:assert/strict';
import { chooseAttachTab, claimedByAgentWorld, type PageCandidate } from '../../src/session/tabChoice';

describe('session: which page to work in when attaching (pure chooser)', () => {
  const pages: PageCandidate[] = [
    { targetId: 'devtools', url: 'devtools://devtools/bundled/inspector.html', focused: true, visible: true },
    { targetId: 'settings', url: 'chrome://settings/', focused: false, visible: false },
    { targetId: 'mail', url: 'https://mail.example/', visible: false },
    { targetId: 'docs', url: 'https://docs.example/', visible: true, focused: true },
    { targetId: 'news', url: 'https://news.example/', visible: true },
  ];

  it('takes the focused page, whatever else is attached to it; never DevTools or internal pages', () => {
    assert.equal(chooseAttachTab(pages), 'docs');
  });

  it('falls back to a visible page, then to the first usable one', () => {
    assert.equal(chooseAttachTab(pages.filter((p) => p.targetId !== 'docs')), 'news');
    assert.equal(chooseAttachTab([pages[2], { targetId: 'b', url: 'https://b.example/' }]), 'mail');
    assert.equal(chooseAttachTab([{ targetId: 'ntp', url: 'chrome://newtab/' }]), 'ntp');
  });

  it('skips claimed pages and gives a new tab when none is left, or when asked for one', () => {
    assert.equal(chooseAttachTab(pages, { isClaimed: (p) => p.targetId === 'docs' }), 'news');
    assert.equal(chooseAttachTab(pages, { isClaimed: () => true }), undefined);
    assert.equal(chooseAttachTab(pages, { mode: 'new' }), undefined);
    assert.equal(chooseAttachTab([]), undefined);
  });

  it('by default a page is claimed when another Browser Agent works there', () => {
    const withAgent = pages.map((p) => (p.targetId === 'docs' ? { ...p, agentWorld: true } : p));
    assert.equal(chooseAttachTab(withAgent, { isClaimed: claimedByAgentWorld }), 'news');
  });
});

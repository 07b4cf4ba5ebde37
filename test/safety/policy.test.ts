import assert from 'node:assert/strict';
import type { ActionPreview, RiskCategory, PageFacts } from '../../src/contract/types';
import { ratePolicy } from '../../src/safety/policy';
import { DEFAULT_POLICY, normalizePolicy, type PolicySettings } from '../../src/safety/settings';
import type { RiskLevel } from '../../src/contract/decision';

interface Row {
  name: string;
  tool: string;
  risk: RiskCategory;
  input?: Record<string, unknown>;
  preview?: Partial<ActionPreview>;
  text?: string;
  page?: PageFacts;
  settings?: Partial<PolicySettings>;
  level: RiskLevel;
  rule?: string;
}

const shop = 'https://shop.example.com/products/42';
const button = (name: string, extra: Record<string, unknown> = {}) => ({ target: { role: 'button', name, tag: 'button', ...extra } });

const rows: Row[] = [
  // always confirm
  { name: 'evaluate is always confirmed', tool: 'browser_evaluate', risk: 'script', input: { expression: '1+1' }, preview: { url: shop }, level: 'confirm', rule: 'always-confirm:browser_evaluate' },
  { name: 'upload is always confirmed', tool: 'browser_upload_file', risk: 'upload', input: { paths: ['/tmp/a.txt'] }, preview: { url: shop }, level: 'confirm', rule: 'always-confirm:browser_upload_file' },
  { name: 'always-confirm list is configurable', tool: 'browser_evaluate', risk: 'script', preview: { url: shop }, settings: { alwaysConfirmTools: [] }, level: 'auto' },
  { name: 'reading is auto', tool: 'browser_snapshot', risk: 'read', preview: { url: shop }, level: 'auto' },
  // executable downloads
  { name: 'navigate to an .exe', tool: 'browser_navigate', risk: 'navigate', input: { url: 'https://dl.example.com/setup.exe' }, level: 'confirm', rule: 'executable-download' },
  { name: 'click a link to a .dmg', tool: 'browser_click', risk: 'input', input: { ref: 'e1' }, preview: { url: shop, target: { role: 'link', name: 'Get it', href: 'https://x.example.com/app.DMG' } as never }, level: 'confirm', rule: 'executable-download' },
  { name: 'a .pdf is no executable', tool: 'browser_navigate', risk: 'navigate', input: { url: 'https://x.example.com/report.pdf' }, level: 'auto' },
  // schemes
  ...(['file:///etc/passwd', 'javascript:alert(1)', 'data:text/html,<b>x</b>', 'chrome://settings', 'view-source:https://a.com'].map((url) => ({ name: `navigate to ${url.split(':')[0]}: blocked`, tool: 'browser_navigate', risk: 'navigate' as const, input: { url }, level: 'block' as const, rule: 'scheme' }))),
  { name: 'file: allowed when enabled', tool: 'browser_navigate', risk: 'navigate', input: { url: 'file:///tmp/x.html' }, settings: { allowedSchemes: ['file'] }, level: 'auto' },
  { name: 'about:blank always allowed', tool: 'browser_navigate', risk: 'navigate', input: { url: 'about:blank' }, settings: { allowedOrigins: ['example.org'] }, level: 'auto' },
  { name: 'new tab with javascript: blocked', tool: 'browser_tabs', risk: 'session', input: { action: 'open', url: 'javascript:void 0' }, level: 'block', rule: 'scheme' },
  // origins
  { name: 'blocked origin before navigation', tool: 'browser_navigate', risk: 'navigate', input: { url: 'https://evil.example.net/x' }, settings: { blockedOrigins: ['*.example.net'] }, level: 'block', rule: 'blocked-origin' },
  { name: 'blocked glob covers the bare domain', tool: 'browser_navigate', risk: 'navigate', input: { url: 'https://example.net/' }, settings: { blockedOrigins: ['*.example.net'] }, level: 'block', rule: 'blocked-origin' },
  { name: 'not in the allow list', tool: 'browser_navigate', risk: 'navigate', input: { url: 'https://other.org/' }, settings: { allowedOrigins: ['https://*.example.com'] }, level: 'block', rule: 'not-allowed-origin' },
  { name: 'in the allow list', tool: 'browser_navigate', risk: 'navigate', input: { url: 'https://www.example.com/' }, settings: { allowedOrigins: ['https://*.example.com'] }, level: 'auto' },
  { name: 'allow list scheme must match', tool: 'browser_navigate', risk: 'navigate', input: { url: 'http://www.example.com/' }, settings: { allowedOrigins: ['https://*.example.com'] }, level: 'block', rule: 'not-allowed-origin' },
  { name: 'block wins over allow', tool: 'browser_navigate', risk: 'navigate', input: { url: 'https://bad.example.com/' }, settings: { allowedOrigins: ['*.example.com'], blockedOrigins: ['bad.example.com'] }, level: 'block', rule: 'blocked-origin' },
  { name: 'port globs', tool: 'browser_navigate', risk: 'navigate', input: { url: 'http://localhost:5173/' }, settings: { allowedOrigins: ['localhost:*'] }, level: 'auto' },
  { name: 'acting on a page on a blocked origin (after a redirect)', tool: 'browser_click', risk: 'input', input: { ref: 'e1' }, preview: { url: 'https://evil.example.net/landing', ...button('OK') }, settings: { blockedOrigins: ['evil.example.net'] }, level: 'block', rule: 'blocked-origin' },
  { name: 'reading a blocked page is blocked too', tool: 'browser_snapshot', risk: 'read', preview: { url: 'https://evil.example.net/' }, settings: { blockedOrigins: ['evil.example.net'] }, level: 'block' },
  { name: 'leaving a blocked page stays possible', tool: 'browser_navigate_back', risk: 'navigate', preview: { url: 'https://evil.example.net/' }, settings: { blockedOrigins: ['evil.example.net'] }, level: 'auto' },
  { name: 'frame on a blocked origin receives the action', tool: 'browser_click', risk: 'input', input: { ref: 'f1e2' }, preview: { url: shop, target: { role: 'button', name: 'Like', frame: 'https://ads.tracker.io/frame' } }, settings: { blockedOrigins: ['*.tracker.io'] }, level: 'block', rule: 'blocked-origin' },
  // sensitive targets
  { name: 'Submit on a harmless page: notify', tool: 'browser_click', risk: 'input', input: { ref: 'e1' }, preview: { url: shop, ...button('Submit') }, level: 'notify', rule: 'sensitive-target' },
  { name: 'Pay now on checkout: confirm', tool: 'browser_click', risk: 'input', input: { ref: 'e1' }, preview: { url: 'https://shop.example.com/checkout', ...button('Pay now') }, level: 'confirm', rule: 'sensitive-target-on-sensitive-page' },
  { name: 'Delete on /account/settings: confirm', tool: 'browser_click', risk: 'input', input: { ref: 'e1' }, preview: { url: 'https://app.example.com/account/settings', ...button('Delete repository') }, level: 'confirm' },
  { name: 'type=submit with a harmless name: notify', tool: 'browser_click', risk: 'input', input: { ref: 'e1' }, preview: { url: shop, ...button('Go', { type: 'submit' }) }, level: 'notify', rule: 'sensitive-target' },
  { name: 'typeless button in a form submits it', tool: 'browser_click', risk: 'input', input: { ref: 'e1' }, preview: { url: shop, ...button('Next', { inForm: true }) }, level: 'notify' },
  { name: 'type=button in a form does not', tool: 'browser_click', risk: 'input', input: { ref: 'e1' }, preview: { url: shop, ...button('Next', { inForm: true, type: 'button' }) }, level: 'auto' },
  { name: 'harmless button', tool: 'browser_click', risk: 'input', input: { ref: 'e1' }, preview: { url: shop, ...button('Show more') }, level: 'auto' },
  { name: '"Sender" is not "Send"', tool: 'browser_click', risk: 'input', input: { ref: 'e1' }, preview: { url: shop, ...button('Sender details') }, level: 'auto' },
  { name: 'Enter on a Send button', tool: 'browser_press_key', risk: 'input', input: { key: 'Enter' }, preview: { url: shop, ...button('Send') }, level: 'notify' },
  { name: 'Tab on a Send button is harmless', tool: 'browser_press_key', risk: 'input', input: { key: 'Tab' }, preview: { url: shop, ...button('Send') }, level: 'auto' },
  { name: 'type with submit into a form field on a login page', tool: 'browser_type', risk: 'input', input: { ref: 'e1', text: 'bob', submit: true }, preview: { url: 'https://example.com/login', target: { role: 'textbox', name: 'User', tag: 'input', type: 'text', inForm: true } }, level: 'auto' },
  { name: 'Chinese 删除 on a page saying 永久删除', tool: 'browser_click', risk: 'input', input: { ref: 'e1' }, preview: { url: 'https://bbs.example.cn/t/1', ...button('删除') }, text: '此操作将永久删除该帖子', level: 'confirm', rule: 'sensitive-target-on-sensitive-page' },
  { name: 'Chinese 确认支付 page with 提交订单 button', tool: 'browser_click', risk: 'input', input: { ref: 'e1' }, preview: { url: 'https://m.example.cn/o', ...button('提交订单') }, text: '订单金额 ¥99 确认支付', level: 'confirm' },
  { name: 'German löschen, page text "endgültig löschen"', tool: 'browser_click', risk: 'input', input: { ref: 'e1' }, preview: { url: 'https://example.de/x', ...button('Löschen') }, text: 'Dies kann nicht rückgängig gemacht werden.', level: 'confirm' },
  { name: 'Russian Удалить, text нельзя отменить', tool: 'browser_click', risk: 'input', input: { ref: 'e1' }, preview: { url: 'https://example.ru/x', ...button('Удалить') }, text: 'Это действие нельзя отменить', level: 'confirm' },
  { name: 'Japanese 購入, text 注文を確定', tool: 'browser_click', risk: 'input', input: { ref: 'e1' }, preview: { url: 'https://example.jp/x', ...button('購入する') }, text: '注文を確定してください', level: 'confirm' },
  { name: 'Spanish Eliminar, title "Eliminar cuenta"', tool: 'browser_click', risk: 'input', input: { ref: 'e1' }, preview: { url: 'https://example.es/x', title: 'Eliminar cuenta', ...button('Eliminar') }, level: 'confirm' },
  { name: 'levels are configurable', tool: 'browser_click', risk: 'input', input: { ref: 'e1' }, preview: { url: shop, ...button('Submit') }, settings: { sensitiveTargetElsewhere: 'auto' }, level: 'auto' },
  { name: 'own target words', tool: 'browser_click', risk: 'input', input: { ref: 'e1' }, preview: { url: shop, ...button('Launch rocket') }, settings: { sensitiveTargetPatterns: ['launch'] }, level: 'notify' },
  // sensitive fields
  { name: 'typing into a password field', tool: 'browser_type', risk: 'input', input: { ref: 'e2', text: 'hunter22' }, preview: { url: shop, target: { role: 'textbox', name: 'Secret', tag: 'input', inputType: 'password' } }, level: 'confirm', rule: 'sensitive-field' },
  { name: 'typing into cc-number', tool: 'browser_type', risk: 'input', input: { ref: 'e2', text: '4111111111111111' }, preview: { url: shop, target: { role: 'textbox', name: 'Number', autocomplete: 'cc-number' } }, level: 'confirm', rule: 'sensitive-field' },
  { name: 'typing into one-time-code', tool: 'browser_type', risk: 'input', input: { ref: 'e2', text: '123456' }, preview: { url: shop, target: { role: 'textbox', name: 'Code', autocomplete: 'one-time-code' } }, level: 'confirm' },
  { name: 'typing into a field named CVV', tool: 'browser_type', risk: 'input', input: { ref: 'e2', text: '123' }, preview: { url: shop, target: { role: 'textbox', name: 'CVV' } }, level: 'confirm' },
  { name: 'typing into 密码', tool: 'browser_type', risk: 'input', input: { ref: 'e2', text: 'x1y2z3' }, preview: { url: shop, target: { role: 'textbox', name: '密码' } }, level: 'confirm' },
  { name: 'typing a secret placeholder anywhere', tool: 'browser_type', risk: 'input', input: { ref: 'e2', text: '{{secret:API_KEY}}' }, preview: { url: shop, target: { role: 'textbox', name: 'Key' } }, level: 'confirm', rule: 'sensitive-field' },
  { name: 'fill_form with a password field', tool: 'browser_fill_form', risk: 'input', input: { fields: [{ ref: 'e2', value: 'pw' }] }, preview: { url: shop, secret: true }, level: 'confirm' },
  { name: 'typing into a search box', tool: 'browser_type', risk: 'input', input: { ref: 'e2', text: 'shoes' }, preview: { url: shop, target: { role: 'searchbox', name: 'Search', inputType: 'search' } }, level: 'auto' },
  { name: 'sensitive field level configurable', tool: 'browser_type', risk: 'input', input: { ref: 'e2', text: 'pw' }, preview: { url: shop, target: { role: 'textbox', name: 'Password', inputType: 'password' } }, settings: { sensitiveFieldInput: 'notify' }, level: 'notify' },
  // no target in the preview: the focused element counts
  { name: 'typing without a ref into a focused password field', tool: 'browser_type', risk: 'input', input: { text: 'pw12345' }, preview: { url: shop }, page: { focused: { tag: 'input', inputType: 'password', name: 'Password' } }, level: 'confirm', rule: 'sensitive-field' },
  { name: 'Enter on a focused Pay button on a checkout page', tool: 'browser_press_key', risk: 'input', input: { key: 'Enter' }, preview: { url: 'https://shop.example.com/checkout' }, page: { focused: { tag: 'button', name: 'Pay now' } }, level: 'confirm' },
  { name: 'a described target wins over focus', tool: 'browser_type', risk: 'input', input: { ref: 'e1', text: 'x' }, preview: { url: shop, target: { role: 'searchbox', name: 'Search', inputType: 'search' } }, page: { focused: { tag: 'input', inputType: 'password' } }, level: 'auto' },
  // sensitive URLs
  { name: 'navigating to a checkout URL: notify', tool: 'browser_navigate', risk: 'navigate', input: { url: 'https://shop.example.com/checkout?step=2' }, level: 'notify', rule: 'sensitive-url' },
  { name: 'navigating to an ordinary URL: auto', tool: 'browser_navigate', risk: 'navigate', input: { url: 'https://news.example.com/articles/1' }, level: 'auto' },
  { name: '"author" is not "auth"', tool: 'browser_navigate', risk: 'navigate', input: { url: 'https://blog.example.com/author/jane' }, level: 'auto' },
];

describe('safety policy: ratePolicy', () => {
  for (const row of rows) {
    it(`${row.name} → ${row.level}`, () => {
      const preview = row.preview ? ({ message: 'x', ...row.preview } as ActionPreview) : undefined;
      const settings = normalizePolicy({ ...DEFAULT_POLICY, ...row.settings });
      const r = ratePolicy(row.tool, row.risk, row.input ?? {}, preview, settings, row.text || row.page ? { ...row.page, text: row.text } : undefined);
      assert.equal(r.level, row.level, `rule=${r.rule} reason=${r.reason}`);
      if (row.rule) assert.equal(r.rule, row.rule);
      if (r.level !== 'auto') assert.ok(r.reason && r.reason.length > 10, 'a flagged action says why');
    });
  }

  it('a malformed setting falls back to the default instead of disabling the rule', () => {
    const s = normalizePolicy({ alwaysConfirmTools: 'browser_evaluate' as never, sensitiveFieldInput: 'maybe' as never });
    assert.deepEqual(s.alwaysConfirmTools, DEFAULT_POLICY.alwaysConfirmTools);
    assert.equal(s.sensitiveFieldInput, 'confirm');
  });

  it('an invalid user regex is skipped, the rest still applies', () => {
    const s = normalizePolicy({ sensitiveTargetPatterns: ['/([/', 'launch'] });
    const r = ratePolicy('browser_click', 'input', { ref: 'e1' }, { message: 'x', url: shop, target: { name: 'Launch' } }, s);
    assert.equal(r.level, 'notify');
  });
});

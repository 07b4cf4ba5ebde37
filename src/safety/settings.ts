import type { RiskLevel } from '../contract/decision';

/** Everything the safety policy reads; `browserAgent.safety.*` in settings, MCP flags outside VS Code. */
export interface PolicySettings {
  /** Tools that always ask first, whatever the page. */
  alwaysConfirmTools: string[];
  /** File extensions (no dot) whose download asks first. */
  executableExtensions: string[];
  /** Words/phrases (or `/regex/`) in a URL's host or path that make a page sensitive. */
  sensitiveUrlPatterns: string[];
  /** Phrases in page text (any language) that make a page sensitive. */
  sensitiveTextPatterns: string[];
  /** Names of buttons/links whose activation is consequential (submit, pay, delete…). */
  sensitiveTargetPatterns: string[];
  /** Field names/labels that hold payment data or one-time codes (besides type=password and autocomplete). */
  sensitiveFieldPatterns: string[];
  /** Level for a sensitive target on a sensitive page, and elsewhere. */
  sensitiveTargetOnSensitivePage: RiskLevel;
  sensitiveTargetElsewhere: RiskLevel;
  /** Level for typing into password, payment-card and one-time-code fields. */
  sensitiveFieldInput: RiskLevel;
  /** Origin globs (`https://*.example.com`, `*.bank.com`, `localhost:*`). Empty: every origin allowed. */
  allowedOrigins: string[];
  /** Origin globs that are never visited nor acted on. Wins over allowedOrigins. */
  blockedOrigins: string[];
  /** Dangerous schemes (file, javascript, data, chrome…) that are nevertheless allowed. */
  allowedSchemes: string[];
  /** `NAME@origin-glob` entries: the secret NAME is only typed on those origins (others refused); unbound secrets ask first. */
  secretOrigins: string[];
}

/** Schemes that reach the local disk, run code or open browser internals: blocked unless enabled. */
export const DANGEROUS_SCHEMES = ['file', 'javascript', 'data', 'chrome', 'chrome-extension', 'chrome-untrusted', 'devtools', 'view-source', 'blob', 'filesystem'];

export const DEFAULT_POLICY: PolicySettings = {
  alwaysConfirmTools: ['browser_evaluate', 'browser_upload_file'],
  executableExtensions: [
    'exe', 'msi', 'msix', 'appx', 'bat', 'cmd', 'com', 'scr', 'ps1', 'vbs', 'js', 'jse', 'wsf', 'hta', 'cpl', 'reg', 'lnk',
    'dmg', 'pkg', 'app', 'command', 'deb', 'rpm', 'apk', 'aab', 'appimage', 'run', 'sh', 'bin', 'jar', 'py', 'msp', 'iso', 'img', 'crx', 'xpi', 'vsix',
  ],
  sensitiveUrlPatterns: [
    'checkout', 'payment', 'payments', 'pay', 'paypal', 'billing', 'invoice', 'bank', 'banking', 'transfer', 'wire', 'wallet', 'purchase',
    'login', 'log-in', 'signin', 'sign-in', 'sign_in', 'auth', 'oauth', 'oauth2', 'authorize', 'sso', 'password', 'mfa', '2fa',
    'account', 'settings', 'admin', 'security', 'delete', 'remove', 'cancel', 'unsubscribe', 'deactivate', 'close-account',
  ],
  sensitiveTextPatterns: [
    // English
    'confirm payment', 'pay now', 'place order', 'complete purchase', 'card number', 'delete account', 'delete your account',
    'permanently delete', 'cannot be undone', "can't be undone", 'this action is irreversible', 'confirm transfer', 'close your account',
    // Chinese
    '确认支付', '立即支付', '确认付款', '提交订单', '永久删除', '删除账户', '注销账户', '无法撤销', '不可撤销', '无法恢复', '确认转账', '银行卡号',
    // Spanish / Portuguese
    'confirmar pago', 'pagar ahora', 'eliminar cuenta', 'no se puede deshacer', 'confirmar pagamento', 'excluir conta', 'não pode ser desfeita',
    // French
    'confirmer le paiement', 'payer maintenant', 'supprimer le compte', 'supprimer votre compte', 'irréversible', 'ne peut pas être annulée',
    // German
    'zahlung bestätigen', 'jetzt bezahlen', 'zahlungspflichtig bestellen', 'konto löschen', 'kann nicht rückgängig gemacht werden', 'endgültig löschen',
    // Japanese
    '支払いを確定', '購入を確定', '注文を確定', 'アカウントを削除', '元に戻せません', '完全に削除',
    // Russian
    'подтвердить оплату', 'оплатить', 'удалить аккаунт', 'нельзя отменить', 'невозможно отменить',
  ],
  sensitiveTargetPatterns: [
    'submit', 'pay', 'pay now', 'purchase', 'buy', 'buy now', 'order', 'place order', 'checkout', 'check out', 'delete', 'remove', 'send',
    'publish', 'post', 'confirm', 'transfer', 'unsubscribe', 'deactivate', 'destroy', 'erase', 'approve', 'authorize', 'merge', 'deploy',
    '提交', '支付', '付款', '购买', '下单', '删除', '移除', '发送', '发布', '确认', '转账',
    'enviar', 'pagar', 'comprar', 'eliminar', 'borrar', 'publicar', 'confirmar', 'excluir',
    'envoyer', 'payer', 'acheter', 'commander', 'supprimer', 'publier', 'valider', 'confirmer',
    'senden', 'absenden', 'bezahlen', 'kaufen', 'bestellen', 'löschen', 'entfernen', 'veröffentlichen', 'bestätigen',
    '送信', '支払', '購入', '注文', '削除', '公開', '確定',
    'отправить', 'оплатить', 'купить', 'заказать', 'удалить', 'опубликовать', 'подтвердить',
  ],
  sensitiveFieldPatterns: [
    'password', 'passcode', 'passwd', 'pin', 'card number', 'card no', 'cardnumber', 'credit card', 'cc-number', 'cvv', 'cvc', 'csc',
    'security code', 'expiry', 'expiration', 'iban', 'routing number', 'account number', 'one-time code', 'otp', 'verification code', '2fa code',
    '密码', '卡号', '验证码', '安全码', 'contraseña', 'mot de passe', 'passwort', 'kennwort', 'パスワード', '暗証番号', 'пароль',
  ],
  sensitiveTargetOnSensitivePage: 'confirm',
  sensitiveTargetElsewhere: 'notify',
  sensitiveFieldInput: 'confirm',
  allowedOrigins: [],
  blockedOrigins: [],
  allowedSchemes: [],
  secretOrigins: [],
};

/** Settings with missing or malformed fields replaced by defaults: a bad setting never disables a rule. */
export function normalizePolicy(partial: Partial<PolicySettings> | undefined): PolicySettings {
  const out: PolicySettings = { ...DEFAULT_POLICY };
  if (!partial) return out;
  for (const key of Object.keys(DEFAULT_POLICY) as (keyof PolicySettings)[]) {
    const value = partial[key];
    const def = DEFAULT_POLICY[key];
    if (Array.isArray(def)) {
      if (Array.isArray(value)) (out as any)[key] = value.filter((v) => typeof v === 'string' && v.trim()).map((v) => (v as string).trim());
    } else if (typeof value === 'string' && ['auto', 'notify', 'confirm', 'block'].includes(value)) {
      (out as any)[key] = value;
    }
  }
  return out;
}

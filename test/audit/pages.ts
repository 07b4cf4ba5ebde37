/** The login page the audit tests record, and its twin where the button at the same place does something else. */
const form = (button: string) => `<!doctype html><title>Shop login</title>
<form action="/done" method="get">
  <p><label>Email <input id="email" name="email"></label></p>
  <p><label>Password <input id="pw" type="password" name="pw"></label></p>
  <p><label>Key <input id="key" name="key" placeholder="Secret API token"></label></p>
  <p><label>Account number <input id="account" name="account"></label></p>
  <p><button id="go">${button}</button></p>
</form>`;

export const LOGIN_PAGE = form('Sign in');
export const CHANGED_PAGE = form('Delete account');
export const DONE_PAGE = '<!doctype html><title>Welcome</title><h1>Signed in</h1>';

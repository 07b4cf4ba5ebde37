// Imported first by chat.ts: zod reads this when schemas are built, and the webview's CSP has no
// 'unsafe-eval', so zod must never try to compile validators with new Function.
import { config } from 'zod/mini';

config({ jitless: true });

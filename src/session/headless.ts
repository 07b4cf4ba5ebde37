/** Headed needs a display; on a Linux box without one (SSH, containers, CI) "auto" means headless. */
export function resolveHeadless(setting: string | undefined, env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): boolean {
  if (setting === 'on') return true;
  if (setting === 'off') return false;
  return platform === 'linux' && !env.DISPLAY && !env.WAYLAND_DISPLAY;
}

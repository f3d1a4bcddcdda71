/** Where VS Code-family editors and XDG tools keep their data, on Linux, macOS and Windows. */
import { join } from 'node:path';

export function homeDir(env: NodeJS.ProcessEnv): string {
  return env.HOME ?? env.USERPROFILE ?? '.';
}

/** `<UserData>/User` folders of VS Code and its variants (or of Cursor) that may exist on this machine. */
export function editorUserDirs(env: NodeJS.ProcessEnv, products: string[], platform: NodeJS.Platform = process.platform): string[] {
  const home = homeDir(env);
  let base: string;
  if (platform === 'win32') base = env.APPDATA ?? join(home, 'AppData', 'Roaming');
  else if (platform === 'darwin') base = join(home, 'Library', 'Application Support');
  else base = env.XDG_CONFIG_HOME ?? join(home, '.config');
  const dirs = products.map((p) => join(base, p, 'User'));
  if (platform !== 'win32' && products.includes('Code')) dirs.push(join(home, '.vscode-server', 'data', 'User'));
  return dirs;
}

export const VSCODE_PRODUCTS = ['Code', 'Code - Insiders', 'VSCodium', 'Code - OSS'];

/** `$XDG_DATA_HOME` (default ~/.local/share), or the platform's equivalent. */
export function dataHome(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): string {
  const home = homeDir(env);
  if (env.XDG_DATA_HOME) return env.XDG_DATA_HOME;
  if (platform === 'win32') return env.LOCALAPPDATA ?? join(home, 'AppData', 'Local');
  if (platform === 'darwin') return join(home, 'Library', 'Application Support');
  return join(home, '.local', 'share');
}

/** A folder path from a `file://` URI as VS Code writes it, Windows drive letters included (`file:///c%3A/x`). */
export function pathFromFileUri(uri: string): string | undefined {
  if (!uri.startsWith('file://')) return undefined;
  try {
    const url = new URL(uri);
    const path = decodeURIComponent(url.pathname);
    if (/^\/[A-Za-z]:/.test(path)) return path.slice(1).replace(/\//g, '\\');
    return url.host ? `//${url.host}${path}` : path;
  } catch {
    return undefined;
  }
}

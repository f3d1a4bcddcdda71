/** `s` matched as written inside a regular expression (every character with a meaning there escaped). */
export const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

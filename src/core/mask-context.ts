/**
 * Credentials recognised by where they stand, whatever they look like: a value assigned to a password-like name (env
 * files, shell, JSON, YAML, TOML, INI, properties, code), an Authorization or Cookie header, a password on a command
 * line, an XML element (Maven's `<password>`), a .netrc line, a Kubernetes Secret's data, a PuTTY key. Low-entropy passwords ("hunter2hunter2") are masked
 * too; what is plainly not a credential stays readable: type annotations, empty values and placeholders, references
 * to the environment or to other variables, calls, constants such as PASSWORD_MIN_LENGTH, `--password-stdin`.
 */

import { credentialPairs, proseCredentials } from './mask-prose.js';

/** A span of text that holds a credential. */
export interface Span {
  start: number;
  end: number;
}

export interface ContextRule {
  name: string;
  /** The text must match this (case-insensitive) for the rule to run. */
  hint: RegExp;
  find(text: string): Span[];
}

/** The last word(s) of a name that make it a credential's name. */
const CREDENTIAL_WORDS = new Set(['password', 'passwd', 'passphrase', 'pwd', 'pass', 'secret', 'token', 'credential', 'credentials', 'apikey', 'privatekey']);
const CREDENTIAL_PAIRS = new Set([
  'api key',
  'access key',
  'secret key',
  'private key',
  'client secret',
  'auth token',
  'app key',
  'master key',
  'signing key',
  'encryption key',
]);
/** Words glued to a prefix that still name a credential: PGPASSWORD, dbpassword (not tiktoken, not bypass). */
const GLUED = /(?:password|passwd|passphrase)$/;

/** Whether a variable, key or property name names a credential (its last word or two do). */
export function isCredentialName(name: string): boolean {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w.toLowerCase());
  const last = words.at(-1);
  if (!last) return false;
  // "pass" alone is a test verdict (Go's "--- PASS: TestX"), not a password: it needs a prefix (REDIS_PASS)
  if (last === 'pass' && words.length === 1) return false;
  if (CREDENTIAL_WORDS.has(last)) return true;
  if (words.length > 1 && CREDENTIAL_PAIRS.has(`${words.at(-2)} ${last}`)) return true;
  return words.length === 1 && GLUED.test(last) && last.length > 6;
}

/** Values that are not credentials: empty, masked, placeholders, references, types, code, booleans. */
export function isPlaceholder(value: string, quoted: boolean): boolean {
  const v = value.split('\\n')[0].trim(); // a quoted value in escaped text ends at its first escaped line break
  if (v.length < 3) return true;
  if (/\[redacted|redacted_|\.\.\.|…|\*\*\*/i.test(v)) return true; // masked already, or elided for display
  if (/^(?:\*+|x+|\.+|-+|_+|#+|•+)$/i.test(v)) return true;
  if (/^<[^<>]*>$|^\{\{.*\}\}$|^\$\{.*\}$|^\$\(.*\)$|^%\(?[\w.]*\)?s?$|^\{[\w.]*\}$/.test(v)) return true;
  if (/^\$[A-Za-z_]\w*$/.test(v)) return true;
  if (/^(?:process\.env|os\.environ|os\.getenv|env\.|import\.meta\.env|System\.getenv|ENV\[|getenv\(|secrets\.|vars\.|config\.|settings\.)/.test(v))
    return true;
  if (
    /^(?:true|false|null|nil|none|undefined|required|optional|your[_-].*|my[_-]?(?:password|secret|token)|example|placeholder|redacted|hidden|secret|password|token|string|str|number|int|bool|boolean|any|dummy|test|demo|sample|ollama|lm-studio|yes|no)$/i.test(
      v,
    )
  )
    return true;
  // words joined by hyphens or underscores, no digits: a placeholder or a mode ("your-key-here", "proxy-handled")
  if (/^\p{L}+(?:[-_]\p{L}*)+$/u.test(v)) return true;
  if (quoted) return false;
  // unquoted code: a call, a member or index, a type (with generics or unions), an identifier without digits
  if (/[()[\]]/.test(v) || /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/.test(v)) return true;
  if (/^[A-Za-z_$][\w$]*(?:<.*>|\s*\|.*)$/.test(v)) return true;
  return /^[A-Za-z_]+$/.test(v) && /[a-z]_|[a-z][A-Z]|^[a-z]+$/.test(v) && v.length < 24;
}

/** `name = value`, `name: value`, `"name": "value"`, `name := value`, `name => value`, from where the name starts. */
const ASSIGNMENT =
  /(["']?)([A-Za-z_][\w.-]{0,80})\1[ \t]*(?::=|=>|=(?!=)|:(?!:))[ \t]*(?:"((?:[^"\\\n]|\\.){0,300})"|'([^'\n]{0,300})'|`([^`\n]{0,300})`|((?:[^\s"'`,;)}\]\\]|\\(?![nrt"'])){1,300}))/dy;
/** The words a credential's name holds: only around them is an assignment looked for (most text has none). */
const NAME_WORD = /pass|pwd|secret|token|credential|key/gi;
const NAME_CHAR = /[\w.-]/;

/** Assignments whose name holds a credential word, each found from its name's start. */
function* assignmentMatches(text: string): Generator<RegExpExecArray> {
  let done = 0;
  for (const word of text.matchAll(NAME_WORD)) {
    let start = word.index!;
    if (start < done) continue;
    while (start > 0 && NAME_CHAR.test(text[start - 1])) start--;
    if (start > 0 && (text[start - 1] === '"' || text[start - 1] === "'")) start--;
    let end = word.index! + word[0].length;
    while (end < text.length && NAME_CHAR.test(text[end])) end++;
    done = end;
    if (!/^["']?[ \t]*[:=]/.test(text.slice(end, end + 8))) continue;
    ASSIGNMENT.lastIndex = start;
    const m = ASSIGNMENT.exec(text);
    if (m) {
      done = m.index + m[0].length;
      yield m;
    }
  }
}

function assignments(text: string): Span[] {
  const out: Span[] = [];
  for (const m of assignmentMatches(text)) {
    if (!isCredentialName(m[2])) continue;
    const group = [3, 4, 5, 6].find((g) => m[g] !== undefined);
    if (group === undefined) continue;
    const quoted = group !== 6;
    let value = m[group];
    if (!quoted) {
      // unquoted: to the end of the line for YAML/INI/properties values of a line of their own, else one word
      const lineStart = text.lastIndexOf('\n', m.index) + 1;
      const ownLine = /^[ \t]*(?:export[ \t]+|-[ \t]+)?["']?$/.test(text.slice(lineStart, m.index));
      if (ownLine) {
        const from = m.indices![6]![0];
        const lineEnd = text.indexOf('\n', from);
        const line = text
          .slice(from, lineEnd === -1 ? undefined : lineEnd)
          .replace(/[ \t]+#.*$/, '')
          .replace(/[ \t\r]+$/, '')
          .slice(0, 300);
        // a YAML, INI or properties value runs to the end of the line; a property in code ends with , or ;
        if (!/[,;]$/.test(line)) value = line;
      }
      if (/^pwd$/i.test(m[2]) && /^[~/]/.test(value)) continue; // the working directory, not a password
    }
    if (isPlaceholder(value, quoted)) continue;
    const start = m.indices![group]![0];
    out.push({ start, end: start + value.length });
  }
  return out;
}

/** A regular expression whose group `group` is the credential; `skip` rejects a match. */
function byGroup(pattern: RegExp, group: number, skip?: (value: string, m: RegExpMatchArray) => boolean): (text: string) => Span[] {
  return (text) => {
    const out: Span[] = [];
    for (const m of text.matchAll(new RegExp(pattern.source, pattern.flags.includes('d') ? pattern.flags : `${pattern.flags}d`))) {
      const value = m[group];
      if (!value || skip?.(value, m)) continue;
      const [start, end] = m.indices![group]!;
      out.push({ start, end });
    }
    return out;
  };
}

/** The values of a cookie header's or flag's `name=value` pairs that hold a session or a long id. */
function cookiePairs(value: string, base: number): Span[] {
  const spans: Span[] = [];
  for (const pair of value.matchAll(/(?:^|;\s*)([^=;\s]+)=([^;\s]{3,})/g)) {
    if (/^(?:path|domain|expires|max-age|samesite|priority)$/i.test(pair[1])) continue;
    // session cookies whatever their length; other cookies (theme=dark) only when long enough to be an id
    if (pair[2].length < 8 && !/sess|sid|token|auth|jwt|csrf|xsrf|remember|login|key/i.test(pair[1])) continue;
    const start = base + pair.index! + pair[0].lastIndexOf(pair[2]);
    spans.push({ start, end: start + pair[2].length });
  }
  return spans;
}

/** The value lines of a Kubernetes Secret's `data:` and `stringData:` blocks. */
function kubernetesSecretData(text: string): Span[] {
  const out: Span[] = [];
  for (const block of text.matchAll(/^([ \t]*)(?:data|stringData):[ \t]*\n((?:\1[ \t]+[^\n]*\n?)+)/gm)) {
    let at = block.index! + block[0].indexOf(block[2]);
    for (const line of block[2].split('\n')) {
      const m = /^[ \t]+[\w.-]+:[ \t]*(\S.*?)\s*$/.exec(line);
      if (m && !m[1].startsWith('|') && !m[1].startsWith('>')) {
        const start = at + line.lastIndexOf(m[1]);
        out.push({ start, end: start + m[1].length });
      }
      at += line.length + 1;
    }
  }
  return out;
}

export const CONTEXT_RULES: ContextRule[] = [
  { name: 'credential-assignment', hint: /pass|pwd|secret|token|key|credential/i, find: assignments },
  {
    name: 'authorization-header',
    hint: /authorization/i,
    find: byGroup(
      /\b(?:proxy-)?authorization["']?\s*[:=]\s*["']?(?:bearer|basic|token|digest|negotiate|ntlm|apikey|bot|sso-key|awsv4-hmac-sha256)\s+([^\s"'`]+(?:[^\n"'`]*?(?=["'`]|$))?)/gim,
      1,
      (v) => isPlaceholder(v, true),
    ),
  },
  {
    name: 'cookie-value',
    hint: /cookie/i,
    // a header after a label on the same line too (`cookie: Cookie: sessionid=…`)
    find: (text) =>
      [...text.matchAll(/\b(?:set-)?cookie["']?\s*:\s*(?:(?:set-)?cookie["']?\s*:\s*)?["']?([^\n"'`]+)/gi)].flatMap((m) =>
        cookiePairs(m[1], m.index! + m[0].lastIndexOf(m[1])),
      ),
  },
  {
    name: 'cookie-flag',
    hint: /(?:-b|--cookie)[ \t]/,
    // curl -b "sessionid=…", curl --cookie 'a=…; b=…', wget --header is the header rule's
    find: (text) =>
      [...text.matchAll(/\b(?:curl|http|https|xh)\b[^\n|;&]*?(?<=\s)(?:-b|--cookie)[ \t]+(["']?)([^\n"'`]+?)\1(?=\s|$)/g)].flatMap((m) =>
        cookiePairs(m[2], m.index! + m[0].lastIndexOf(m[2])),
      ),
  },
  {
    name: 'credential-header',
    hint: /x-[\w-]*(?:key|token|secret|auth|signature)|api-key/i,
    // X-Api-Key, X-Auth-Token, X-Shopify-Access-Token, Api-Key: inside a quoted curl -H as well as on a line of its own
    find: byGroup(/(?<![\w-])(?:x-[\w-]*(?:key|token|secret|auth|signature)[\w-]*|api-key)[ \t]*:[ \t]*(["']?)([^\s"'`,;]+)\1/gi, 2, (v, m) =>
      isPlaceholder(v, m[1] !== ''),
    ),
  },
  // "the password for the build server is X", "Das Passwort lautet X", "パスワードは X です", "with password X"
  { name: 'prose-credential', hint: /[\s\S]/, find: proseCredentials }, // it finds its own words fast
  { name: 'credential-pair', hint: /sign(?:ed)? in|log(?:ged)? ?(?:in|on)|creds|credential|authenticate|connect as/i, find: credentialPairs },
  {
    name: 'command-line-password',
    hint: /[ \t]-p|--(?:pass|token|secret|api-?key|client-secret|auth|access-token|user\b)|[ \t]-u[ \t]|redis-cli/i,
    find: (text) => [
      // --password=x, --password x, --token x, --api-key x (not --password-stdin, not another flag)
      ...byGroup(
        /(?<![\w-])--(?:password|passwd|pass|token|secret|api-key|apikey|client-secret|auth-token|access-token)(?:=|[ \t]+)(?!-)(["']?)([^\s"'`]+)\1/gi,
        2,
        (v) => isPlaceholder(v, false) && !/\d/.test(v),
      )(text),
      // mysql -pSECRET (glued), docker login -p x, sshpass -p x
      ...byGroup(/\b(?:mysql|mysqldump|mariadb|mysqladmin)\b[^\n|;&]*?(?<=\s)-p(?!\s)(["']?)([^\s"'`]+)\1/g, 2)(text),
      ...byGroup(/\b(?:docker|podman|helm|oras)[ \t]+(?:login|registry[ \t]+login)\b[^\n|;&]*?[ \t]-p[ \t]+(["']?)([^\s"'`]+)\1/g, 2)(text),
      ...byGroup(/\bsshpass[ \t]+-p[ \t]*(["']?)([^\s"'`]+)\1/g, 2)(text),
      ...byGroup(/\bredis-cli\b[^\n|;&]*?[ \t]-a[ \t]+(["']?)([^\s"'`]+)\1/g, 2)(text),
      // curl -u user:pass, --user user:pass
      ...byGroup(/(?<![\w-])(?:-u|--user)[ \t]+["']?[^\s:"'`]+:([^\s"'`@]+)/g, 1)(text),
    ],
  },
  {
    name: 'xml-element',
    hint: /<[\w:.-]*(?:pass|secret|token|key)[\w:.-]*>/i,
    find: byGroup(/<([\w:.-]{1,80})>([^<\n]{1,300})<\/\1>/g, 2, (v, m) => !isCredentialName(m[1]) || isPlaceholder(v, true)),
  },
  {
    name: 'url-token',
    hint: /:\/\/[^\s/@]{16,}@/,
    find: byGroup(/\b[a-z][a-z0-9+.-]{1,20}:\/\/([A-Za-z0-9_.~%+-]{16,256})@[^\s'"`<>]+/gi, 1, (v) => !/\d/.test(v) || !/[A-Za-z]/.test(v)),
  },
  {
    name: 'netrc',
    hint: /\bmachine\b|\bdefault\b/,
    find: byGroup(/\b(?:machine[ \t]+\S+|default)(?:[ \t]+(?:login|account)[ \t]+\S+)*[ \t]+password[ \t]+(\S+)/g, 1),
  },
  { name: 'kubernetes-secret', hint: /kind:\s*Secret/, find: (text) => (/kind:\s*["']?Secret\b/.test(text) ? kubernetesSecretData(text) : []) },
  {
    name: 'putty-private-key',
    hint: /PuTTY-User-Key-File/,
    find: byGroup(/(Private-Lines:[ \t]*\d+\r?\n)((?:[A-Za-z0-9+/=]+\r?\n?)+)/g, 2),
  },
];

/** The spans the rules find in `text` as it is. */
function spansOf(text: string): { rule: string; span: Span }[] {
  const found: { rule: string; span: Span }[] = [];
  for (const rule of CONTEXT_RULES)
    if (rule.hint.test(text)) for (const span of rule.find(text)) if (span.end > span.start) found.push({ rule: rule.name, span });
  return found;
}

/** Escapes a JSON or code string literal holds; a text holding them is also read unescaped. */
const ESCAPE = /\\[nrt"'\\/]/;
const ESCAPES = /\\[nrt"'\\/]/g;
const UNESCAPED: Record<string, string> = { n: '\n', r: '\r', t: '\t', '"': '"', "'": "'", '\\': '\\', '/': '/' };

/** Text read with its escapes undone, and where its positions fall in the text it was read from. */
interface View {
  text: string;
  /** Where `text` at `position` starts in the outer text. */
  outer(position: number): number;
}

/** `text` with its string escapes undone; each escape is one character shorter, so positions map by breakpoints. */
function unescapeView(text: string): View {
  const parts: string[] = [];
  const inner: number[] = [0];
  const outer: number[] = [0];
  let last = 0;
  let length = 0;
  for (const m of text.matchAll(ESCAPES)) {
    parts.push(text.slice(last, m.index), UNESCAPED[m[0][1]]);
    length += m.index! - last + 1;
    last = m.index! + 2;
    inner.push(length);
    outer.push(last);
  }
  parts.push(text.slice(last));
  return {
    text: parts.join(''),
    outer(position) {
      let lo = 0;
      let hi = inner.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (inner[mid] <= position) lo = mid;
        else hi = mid - 1;
      }
      return outer[lo] + (position - inner[lo]);
    },
  };
}

/** Where a credential may stand: only around these words is escaped text read unescaped. */
const NEAR = /pass|pwd|secret|token|credential|key|authoriz|cookie|machine|kind/gi;

/** The stretches of `text` around a credential word that hold an escape, merged where they touch. */
function escapedWindows(text: string): [number, number][] {
  const windows: [number, number][] = [];
  for (const m of text.matchAll(NEAR)) {
    const from = Math.max(0, m.index! - 160);
    const to = Math.min(text.length, m.index! + (m[0].toLowerCase() === 'kind' ? 2000 : 480));
    const last = windows.at(-1);
    if (last && from <= last[1]) last[1] = Math.max(last[1], to);
    else windows.push([from, to]);
  }
  return windows.filter(([from, to]) => ESCAPE.test(text.slice(from, to)));
}

/**
 * Every credential span of `text` by context, merged where they overlap. Where text holds string escapes (a transcript
 * quoting a JSON body, a stored full.md, JSON inside JSON), the stretches around credential words are also read
 * unescaped, one and two levels deep, so that `\"password\": \"x\"` and an env file inside a JSON string are found.
 */
export function contextSpans(text: string): { rule: string; span: Span }[] {
  const found = spansOf(text);
  if (ESCAPE.test(text))
    for (const [from, to] of escapedWindows(text)) {
      let toText = (position: number): number => from + position;
      let view = text.slice(from, to);
      for (let depth = 0; depth < 2 && ESCAPE.test(view); depth++) {
        const inner = unescapeView(view);
        const outer = toText;
        toText = (position) => outer(inner.outer(position));
        view = inner.text;
        for (const f of spansOf(view)) found.push({ rule: f.rule, span: { start: toText(f.span.start), end: toText(f.span.end) } });
      }
    }
  found.sort((a, b) => a.span.start - b.span.start || b.span.end - a.span.end);
  const merged: { rule: string; span: Span }[] = [];
  for (const f of found) {
    const last = merged.at(-1);
    if (last && f.span.start < last.span.end) last.span.end = Math.max(last.span.end, f.span.end);
    else merged.push({ rule: f.rule, span: { ...f.span } });
  }
  return merged;
}

/** `text` with every credential found by context replaced by `mask`. */
export function maskByContext(text: string, mask: string): string {
  const spans = contextSpans(text);
  if (!spans.length) return text;
  let out = '';
  let last = 0;
  for (const { span } of spans) {
    out += text.slice(last, span.start) + mask;
    last = span.end;
  }
  return out + text.slice(last);
}

/**
 * Credentials written in sentences, in the languages people write them in: a credential word ("password", "API key",
 * "Passwort", "mot de passe", "パスワード", "密码", "비밀번호"…) followed within a few words by a value-shaped word —
 * "the password for the build server is X", "Das Passwort lautet X", "パスワードは X です", "ssh admin@host with
 * password X", "sign in as deploy / X", "the passcode for the safe is 4417-9902-3318". What reads as prose about a
 * credential stays: "(using password: YES)", "the password reset flow", "the token expired", "the token count is 4096".
 *
 * The sentence is read by small grammar, not one expression: the word, an optional qualifier ("for the build server"),
 * a connector ("is", "lautet", "は", "是"), then the first word after it, which must look like a value for the kind of
 * credential named (a password: digits, symbols or inner capitals; a PIN: digits; a token: letters and digits).
 */
import type { Span } from './mask-context.js';

type Kind = 'password' | 'pin' | 'token';

/** Credential words in scripts that separate words with spaces, by the kind of value they name. */
const SPACED: Record<Kind, string[]> = {
  password: [
    'password',
    'passwd',
    'passphrase',
    'pw',
    'passwort',
    'kennwort',
    'mot de passe',
    'contraseña',
    'contrasena',
    'clave',
    'senha',
    'palavra-passe',
    "parola d'ordine",
    'wachtwoord',
    'hasło',
    'haslo',
    'пароль',
    'şifre',
    'sifre',
    'parola',
    'lösenord',
    'lösenordet',
    'losenord',
    'adgangskoden',
    'passordet',
    'şifresi',
    'parolası',
    'adgangskode',
    'passord',
    'salasana',
    'heslo',
    'jelszó',
    'jelszo',
    'κωδικός',
    'mật khẩu',
    'kata sandi',
    'root password',
  ],
  pin: ['pin', 'pin code', 'passcode', 'pass code', 'access code', 'code pin', 'código pin', 'geheimzahl', 'zugangscode'],
  token: [
    'token',
    'api key',
    'api-key',
    'api token',
    'access token',
    'access key',
    'auth token',
    'bearer token',
    'secret',
    'secret key',
    'client secret',
    'private key',
    'app password',
    'api-schlüssel',
    'clé api',
    "clé d'api",
    'clave de api',
    'clave api',
    'chave de api',
    'jeton',
    'ключ api',
    'токен',
  ],
};

/** Credential words in scripts written without spaces: no word boundary is asked around them. */
const UNSPACED: Record<Kind, string[]> = {
  password: ['パスワード', '密码', '密碼', '口令', '비밀번호', '암호', 'סיסמה', 'סיסמא', 'كلمة المرور', 'كلمة السر', 'पासवर्ड'],
  pin: ['暗証番号', '验证码', 'PIN码', '핀번호'],
  token: ['トークン', 'APIキー', '令牌', '密钥', '秘钥', '토큰', 'API 키'],
};

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '\\s+');
const alternation = (words: string[]): string =>
  [...words]
    .sort((a, b) => b.length - a.length)
    .map(escape)
    .join('|');

const KINDS = Object.keys(SPACED) as Kind[];
const normal = (word: string): string => word.toLowerCase().replace(/\s+/g, ' ');
/** Each word's kind, and whether it needs a word boundary around it. */
const KIND_OF = new Map<string, { kind: Kind; spaced: boolean }>();
for (const kind of KINDS) {
  for (const w of UNSPACED[kind]) KIND_OF.set(normal(w), { kind, spaced: false });
  for (const w of SPACED[kind]) KIND_OF.set(normal(w), { kind, spaced: true });
}
/** Every word in one expression (without Unicode mode or look-arounds; boundaries are checked after). */
const WORD = new RegExp(alternation(KINDS.flatMap((k) => [...SPACED[k], ...UNSPACED[k]])), 'gi');
const WORD_CHAR = /[\p{L}\p{N}_]/u;
/**
 * Short runs, one inside every word: found first, and only around them is the long list of words tried (trying ninety
 * words at every character of every text halved masking's speed). Most text is ASCII: the other runs are looked for
 * only in text that holds a character beyond it.
 */
const ASCII_STEM =
  /p(?:ass|w|in|arola|rivate\s+k)|token|s(?:ecret|enha|ifre|enord|alasana|andi|chl)|a(?:pi[\s-]+k|ccess\s+[kc])|wort|c(?:ontras|lave|have|reds)|wacht|h(?:aslo|eslo)|kode|jelsz|jeton|geheim|zugangs/gi;
/** Written without the case-insensitive flag, which makes a scan of these several times slower; capitals listed. */
const OTHER_STEM =
  /[hH]asł|[şŞ]ifre|[lL]ösen|[κΚ]ωδικ|khẩu|[пП]ароль|[тТ]окен|[кК]люч|[cC]lé|パスワード|暗証|密|口令|비밀|암호|סיסמ|كلمة|पासवर्ड|トークン|キー|令牌|토큰|키|验证|핀/g;
const BEYOND_ASCII = /[^\x00-\x7f]/;

/** The credential words around each match of `stems` in `text`, by where they start. */
function wordsAround(text: string, stems: RegExp, found: Map<number, string>): void {
  stems.lastIndex = 0;
  let done = 0;
  for (let stem = stems.exec(text); stem; stem = stems.exec(text)) {
    if (stem.index < done) continue;
    const from = Math.max(0, stem.index - 24);
    const window = text.slice(from, Math.min(text.length, stem.index + 32));
    WORD.lastIndex = 0;
    for (let m = WORD.exec(window); m; m = WORD.exec(window)) {
      const index = from + m.index;
      if (index > stem.index || index + m[0].length < stem.index + stem[0].length) continue; // another stem's word
      found.set(index, m[0]);
      done = index + m[0].length;
      break;
    }
    done = Math.max(done, stem.index + stem[0].length);
  }
}

/** The credential words of `text`, in order. */
function credentialWords(text: string): { index: number; word: string }[] {
  const found = new Map<number, string>();
  wordsAround(text, ASCII_STEM, found);
  if (BEYOND_ASCII.test(text)) wordsAround(text, OTHER_STEM, found);
  return [...found].sort((x, y) => x[0] - y[0]).map(([index, word]) => ({ index, word }));
}

/** "is", "was", "lautet", "est", "は", "是", ":" — what joins a credential to its value. */
const CONNECTOR =
  /[ \t]*(?:(?:is\s+now|was\s+now|is\s+still|now\s+is|set\s+to|changed\s+to|will\s+be|would\s+be|should\s+be|is|was|are|were|lautet|lautete|ist|war|heißt|est|était|sera|es|era|será|é|è|jest|to|это|är|var|er|on|oli|je|este|είναι|là|adalah|ialah|now)(?![\p{L}\p{N}_])|[:=＝：—–]|は|が|是|为|為|는|은|이|가|هي|هو|है)[ \t]*/uy;
/** The preposition that starts a qualifier between the word and its connector: "for the build server", "für den Server". */
const QUALIFIER =
  /[ \t]+(?:for|of|to|on|at|in|from|für|zum|zur|vom|des|auf|pour|du|de|del|sur|para|do|da|per|di|della|voor|van|op|dla|для|от|för|till|på|til)(?![\p{L}\p{N}_])/uy;
/** One word of a qualifier. */
const QUALIFIER_WORD = /[ \t]+[\p{L}\p{N}_.@'’-]+/uy;
/** What sits before a credential word whose value follows with no connector: "with password X", "enter the PIN 4417". */
const DIRECT_BEFORE = /(?:\b(?:with|using|use|enter|type|and|plus|new|mit|avec|con|com|met|z)\s+(?:the\s+|a\s+|das\s+|le\s+|la\s+|el\s+|o\s+|a\s+)?|[,;]\s*)$/i;
/** Words of languages that put the verb last, whose value may follow with no connector ("şifre X olarak ayarlandı"). */
const VERB_LAST = /^(?:şifre|şifresi|sifre|parola|parolası)$/i;
/** The value: a run without spaces or quotes, possibly quoted. */
const VALUE = /(["'`“‘「『«]?)([^\s"'`“”‘’「」『』«»]{3,128})/uy;
/** Scripts written without spaces end a value glued to the sentence (비밀번호는 X입니다). */
const UNSPACED_SCRIPT = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Devanagari}]/u;
/** Names that read as values and are the tools that keep credentials. */
const NOT_VALUES =
  /^(?:1password|keepass(?:xc)?|lastpass|bitwarden|dashlane|keychain|vaultwarden|oauth2?|sha-?\d+|md5|bcrypt|argon2(?:id)?|pbkdf2|base64|utf-?8|ascii|http\/\d|tls1?\.\d|v\d+(?:\.\d+)*)$/i;

/** Whether `value` (trimmed of closing punctuation) reads as a credential of `kind`. */
function readsAsValue(value: string, kind: Kind, quoted: boolean): boolean {
  if (value.length < 4 || NOT_VALUES.test(value)) return false;
  if (/^[~/.$<{\\]|\[redacted|:\/\/|[()[\]{}]|\.\.\.|…|^\*+$|^x+$/i.test(value)) return false;
  if (/^(?:yes|no|none|null|nil|true|false|required|optional|empty|unset|missing|invalid|expired|correct|incorrect|wrong|n\/a|tbd|todo)$/i.test(value))
    return false;
  if (/^\p{L}+(?:[-_]\p{L}*)+$/u.test(value)) return false; // SOME_NAME, your-key-here, REDACTED_API_KEY
  if (/^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/.test(value)) return false; // process.env.KEY, config.password
  const digits = /\d/.test(value);
  const letters = /\p{L}/u.test(value);
  const symbols = /[^\p{L}\p{N}]/u.test(value);
  const innerCapital = /\p{Ll}\p{Lu}|\p{Lu}\p{Ll}+\p{Lu}/u.test(value);
  if (kind === 'pin') return /^\d(?:[\d -]*\d)?$/.test(value) ? value.replace(/\D/g, '').length >= 4 : value.length >= 6 && digits;
  if (kind === 'token') return value.length >= 8 && (quoted || (digits && letters) || (innerCapital && value.length >= 16)) && !/^\d+$/.test(value);
  if (quoted) return true;
  if (/^\d+$/.test(value)) return value.length >= 6;
  return value.length >= 6 && (digits || symbols || innerCapital);
}

/** The value starting at `at`, if it reads as a credential of `kind`: its span. */
function valueAt(text: string, at: number, kind: Kind): Span | undefined {
  VALUE.lastIndex = at;
  const m = VALUE.exec(text);
  if (!m) return undefined;
  let value = m[2];
  const cut = value.search(UNSPACED_SCRIPT);
  if (cut >= 0) value = value.slice(0, cut);
  value = value.replace(/[.,;:?)」』。、！？]+$/u, '');
  if (m[1] && value.endsWith(m[1])) value = value.slice(0, -1);
  if (!readsAsValue(value, kind, m[1] !== '')) return undefined;
  const start = at + m[1].length;
  return { start, end: start + value.length };
}

/** Where a connector ending at or after `at` leaves off, if one starts there. */
function afterConnector(text: string, at: number): number | undefined {
  CONNECTOR.lastIndex = at;
  return CONNECTOR.exec(text) ? CONNECTOR.lastIndex : undefined;
}

/** The credential values of sentences that name a credential and then give it. */
export function proseCredentials(text: string): Span[] {
  const out: Span[] = [];
  for (const m of credentialWords(text)) {
    const word = KIND_OF.get(normal(m.word));
    const end = m.index + m.word.length;
    if (!word || (word.spaced && (WORD_CHAR.test(text.charAt(m.index - 1)) || WORD_CHAR.test(text.charAt(end))))) continue;
    const kind = word.kind;
    let span: Span | undefined;
    // the word, its connector, the value: "password is X", "Passwort lautet X", "パスワードは X"
    const direct = afterConnector(text, end);
    if (direct !== undefined) span = valueAt(text, direct, kind);
    // the word, a qualifier of one to four words, the connector: "password for the build server is X"
    QUALIFIER.lastIndex = end;
    if (!span && QUALIFIER.exec(text)) {
      QUALIFIER_WORD.lastIndex = QUALIFIER.lastIndex;
      for (let words = 0; !span && words < 4 && QUALIFIER_WORD.exec(text); words++) {
        const after = afterConnector(text, QUALIFIER_WORD.lastIndex);
        if (after !== undefined) span = valueAt(text, after, kind);
      }
    }
    // no connector, where the sentence says so: "with password X", ", passphrase X", "enter the PIN 4417"
    const before = text.slice(Math.max(0, m.index - 24), m.index);
    if (!span && kind !== 'token' && (DIRECT_BEFORE.test(before) || VERB_LAST.test(m.word)) && /^\s/.test(text.slice(end, end + 1)))
      span = valueAt(text, end + (/^\s+/.exec(text.slice(end, end + 8))?.[0].length ?? 0), kind);
    if (span) out.push(span);
  }
  return out;
}

/** "sign in as deploy / X", "log in as admin/X", "login root:X", "credentials deploy / X": the second of a user/password pair. */
const PAIR =
  /\b(?:sign(?:ed)?\s+in|log(?:ged)?\s+in|log\s+on|login|logon|connect\s+as|authenticate|credentials?|creds)(?:\s+(?:as|with|using|is|are))?:?\s+["'`]?([\p{L}\p{N}._@\\-]{1,64})["'`]?\s*(?:\/|\s+and\s+(?:password\s+)?)\s*/giu;

/** The password of each user/password pair in prose. */
export function credentialPairs(text: string): Span[] {
  const out: Span[] = [];
  for (const m of text.matchAll(PAIR)) {
    const span = valueAt(text, m.index! + m[0].length, 'password');
    if (span) out.push(span);
  }
  return out;
}

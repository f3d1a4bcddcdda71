/**
 * Secret and e-mail masking, applied once at ingest: nothing unmasked is indexed, archived or shown.
 * Each rule has a cheap literal `hint` so that the regular expression only runs on text that can match.
 */

import { CONTEXT_RULES, contextSpans, maskByContext } from './mask-context.js';
import { escapeRegExp } from './regexp.js';

export const SECRET_MASK = '[redacted-secret]';
export const EMAIL_MASK = '[redacted-email]';

interface Rule {
  name: string;
  /** A literal (or every literal of a list) the text must hold, or a cheap expression it must match. */
  hint?: string | string[] | RegExp;
  pattern: RegExp;
  /** Replace only the given capture group (1-based), keeping the rest of the match. */
  group?: number;
}

const RULES: Rule[] = [
  {
    name: 'private-key',
    hint: 'PRIVATE KEY',
    pattern: /-----BEGIN[A-Z0-9 ]{0,40}PRIVATE KEY( BLOCK)?-----[\s\S]*?(-----END[A-Z0-9 ]{0,40}PRIVATE KEY( BLOCK)?-----|$)/g,
  },
  { name: 'aws-access-key', hint: /A(?:KIA|SIA|BIA|CCA|3T)/, pattern: /\b(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}\b/g },
  { name: 'github-token', hint: /gh[pousr]_|github_pat_/, pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{60,255})\b/g },
  { name: 'gitlab-token', hint: /gl(?:pat|dt|ptt|rt|cbt|oas|ft|imt|agent)-/, pattern: /\bgl(?:pat|dt|ptt|rt|cbt|oas|ft|imt|agent)-[A-Za-z0-9_-]{20,}\b/g },
  { name: 'slack-token', hint: 'xox', pattern: /\bxox[abposre]-[A-Za-z0-9-]{10,}\b/g },
  { name: 'slack-webhook', hint: 'hooks.slack.com', pattern: /https:\/\/hooks\.slack\.com\/(?:services|workflows)\/[A-Za-z0-9+/]{20,}/g },
  { name: 'stripe-key', hint: /_(?:live|test|prod)_/, pattern: /\b(?:sk|rk|pk)_(?:live|test|prod)_[A-Za-z0-9]{16,}\b/g },
  { name: 'anthropic-key', hint: 'sk-ant-', pattern: /\bsk-ant-(?:api|admin|oat|ort|sid)\d{2}-[A-Za-z0-9_-]{20,}/g },
  {
    name: 'openai-key',
    hint: 'sk-',
    pattern:
      /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}T3BlbkFJ[A-Za-z0-9_-]{20,}|\bsk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{40,}|\bsk-[A-Za-z0-9]{48}\b/g,
  },
  { name: 'google-api-key', hint: 'AIza', pattern: /\bAIza[0-9A-Za-z_-]{35}(?![\w-])/g },
  { name: 'gcp-service-account-key', hint: 'private_key_id', pattern: /("private_key_id"\s*:\s*")([a-f0-9]{40})(")/g, group: 2 },
  { name: 'npm-token', hint: 'npm_', pattern: /\bnpm_[A-Za-z0-9]{36}\b/g },
  { name: 'pypi-token', hint: 'pypi-', pattern: /\bpypi-AgE[A-Za-z0-9_-]{50,}/g },
  { name: 'huggingface-token', hint: 'hf_', pattern: /\bhf_[A-Za-z]{34}\b/g },
  { name: 'groq-key', hint: 'gsk_', pattern: /\bgsk_[A-Za-z0-9]{48,}\b/g },
  { name: 'xai-key', hint: 'xai-', pattern: /\bxai-[A-Za-z0-9]{60,}\b/g },
  { name: 'azure-storage-key', hint: 'AccountKey=', pattern: /(AccountKey=)([A-Za-z0-9+/=]{40,})/g, group: 2 },
  { name: 'jwt', hint: 'eyJ', pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g },
  {
    name: 'url-password',
    hint: ['://', '@'],
    pattern: /\b([a-z][a-z0-9+.-]{1,20}:\/\/[^\s:/@'"`<>]{1,128}:)([^\s@/'"`<>]{3,256})(@[^\s'"`<>]+)/gi,
    group: 2,
  },
];

/**
 * Service tokens with a recognisable prefix (formats as each service documents them, as collected in gitleaks' rule
 * data). Most text holds none, so one combined scan for their prefixes decides whether any of them runs.
 */
const PREFIXED_RULES: Rule[] = [
  { name: 'sendgrid-key', hint: 'SG.', pattern: /\bSG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}(?![\w-])/g },
  { name: 'shopify-token', hint: 'shp', pattern: /\bshp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}\b/g },
  { name: '1password-service-token', hint: 'ops_eyJ', pattern: /\bops_eyJ[A-Za-z0-9+/=_-]{50,}/g },
  { name: 'linear-key', hint: 'lin_api_', pattern: /\blin_api_[A-Za-z0-9]{40}\b/g },
  { name: 'digitalocean-token', hint: '_v1_', pattern: /\bdo[opr]_v1_[a-f0-9]{64}\b/g },
  { name: 'twilio-key', hint: 'SK', pattern: /\bSK[0-9a-fA-F]{32}\b/g },
  { name: 'databricks-token', hint: 'dapi', pattern: /\bdapi[a-f0-9]{32}(?:-\d)?\b/g },
  { name: 'doppler-token', hint: 'dp.', pattern: /\bdp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{40,44}\b/g },
  { name: 'postman-key', hint: 'PMAK-', pattern: /\bPMAK-[a-f0-9]{24}-[a-f0-9]{34}\b/g },
  { name: 'supabase-token', hint: 'sbp_', pattern: /\bsbp_[a-f0-9]{40}\b/g },
  { name: 'sentry-token', hint: 'sntry', pattern: /\bsntry[su]_[A-Za-z0-9+/=_-]{30,}/g },
  { name: 'grafana-token', hint: /gl(?:sa|c)_/, pattern: /\bglsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}\b|\bglc_[A-Za-z0-9+/]{32,400}={0,2}/g },
  { name: 'replicate-token', hint: 'r8_', pattern: /\br8_[A-Za-z0-9]{37}\b/g },
  { name: 'perplexity-key', hint: 'pplx-', pattern: /\bpplx-[A-Za-z0-9]{48}\b/g },
  { name: 'openrouter-key', hint: 'sk-or-', pattern: /\bsk-or-v1-[a-f0-9]{64}\b/g },
  { name: 'posthog-key', hint: /ph[cx]_/, pattern: /\bph[cx]_[A-Za-z0-9]{43}\b/g },
  { name: 'notion-token', hint: /ntn_|secret_/, pattern: /\bntn_[A-Za-z0-9]{46}\b|\bsecret_[A-Za-z0-9]{43}\b/g },
  { name: 'figma-token', hint: 'figd_', pattern: /\bfigd_[A-Za-z0-9_-]{40}(?![\w-])/g },
  { name: 'age-secret-key', hint: 'AGE-SECRET-KEY-', pattern: /\bAGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}\b/g },
  { name: 'terraform-cloud-token', hint: '.atlasv1.', pattern: /\b[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_=-]{60,70}(?![\w=-])/g },
  { name: 'fly-token', hint: 'fo1_', pattern: /\bfo1_[A-Za-z0-9_-]{43}(?![\w-])/g },
  { name: 'newrelic-key', hint: 'NRAK-', pattern: /\bNRAK-[A-Z0-9]{27}\b/g },
  { name: 'telegram-bot-token', hint: ':AA', pattern: /\b\d{8,10}:AA[A-Za-z0-9_-]{33}(?![\w-])/g },
  { name: 'square-token', hint: 'sq0', pattern: /\bsq0(?:atp|csp)-[A-Za-z0-9_-]{22,43}(?![\w-])/g },
  { name: 'mailchimp-key', hint: '-us', pattern: /\b[a-f0-9]{32}-us\d{1,2}\b/g },
  { name: 'dynatrace-token', hint: 'dt0c01.', pattern: /\bdt0c01\.[A-Z0-9]{24}\.[A-Z0-9]{64}\b/g },
  { name: 'atlassian-token', hint: 'ATATT3', pattern: /\bATATT3[A-Za-z0-9_=-]{150,}/g },
  { name: 'google-oauth', hint: /GOCSPX-|ya29\./, pattern: /\bGOCSPX-[A-Za-z0-9_-]{28}(?![\w-])|\bya29\.[A-Za-z0-9_-]{20,}/g },
  { name: 'azure-ad-client-secret', hint: 'Q~', pattern: /(?<![A-Za-z0-9_~.-])[A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.-]{31,34}(?![A-Za-z0-9_~.-])/g },
  { name: 'netlify-token', hint: 'nfp_', pattern: /\bnfp_[A-Za-z0-9]{40}\b/g },
  { name: 'docker-hub-token', hint: 'dckr_pat_', pattern: /\bdckr_pat_[A-Za-z0-9_-]{27}(?![\w-])/g },
  { name: 'pulumi-token', hint: 'pul-', pattern: /\bpul-[a-f0-9]{40}\b/g },
  { name: 'buildkite-token', hint: 'bkua_', pattern: /\bbkua_[a-f0-9]{40}\b/g },
  { name: 'vault-token', hint: /hv[sb]\./, pattern: /\bhv[sb]\.[A-Za-z0-9_-]{90,}/g },
  // AWS temporary credentials (STS session tokens): base64 of a fixed header, "IQoJb3JpZ2lu…" or "FwoGZXIvYXdz…"
  { name: 'aws-session-token', hint: /IQoJ|FwoG/, pattern: /(?<![A-Za-z0-9+/])(?:IQoJb3JpZ2lu|FwoGZXIvYXdz)[A-Za-z0-9+/]{40,}={0,2}/g },
  { name: 'stripe-webhook-secret', hint: 'whsec_', pattern: /\bwhsec_[A-Za-z0-9+/=]{24,}/g },
  { name: 'slack-app-token', hint: 'xapp-', pattern: /\bxapp-\d-[A-Z0-9]+-\d+-[a-z0-9]{32,}\b/g },
  { name: 'heroku-token', hint: 'HRKU-', pattern: /\bHRKU-[A-Za-z0-9_-]{40,}/g },
  { name: 'planetscale-token', hint: 'pscale_', pattern: /\bpscale_(?:tkn|pw|oauth)_[A-Za-z0-9_.=-]{32,64}/g },
  { name: 'rubygems-key', hint: 'rubygems_', pattern: /\brubygems_[a-f0-9]{48}\b/g },
  { name: 'mapbox-secret-token', hint: 'sk.eyJ', pattern: /\bsk\.eyJ[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{20,}/g },
  { name: 'google-refresh-token', hint: '1//0', pattern: /(?<![\w/])1\/\/0[A-Za-z0-9_-]{40,}/g },
  { name: 'azure-sas-signature', hint: 'sig=', pattern: /([?&]sig=)([A-Za-z0-9%+/=]{30,})/g, group: 2 },
];
const PREFIXES = new RegExp(PREFIXED_RULES.map((r) => (typeof r.hint === 'string' ? escapeRegExp(r.hint) : (r.hint as RegExp).source)).join('|'));

/** What an e-mail address looks like (maskEmails finds the same matches starting from each '@'). */
export const EMAIL =
  /[A-Za-z0-9][A-Za-z0-9._%+-]{0,63}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?)*\.[A-Za-z]{2,24}\b/g;
/** SSH remotes such as git@github.com are addresses, not people's e-mail. */
const NOT_EMAIL_LOCAL = new Set(['git']);

/** An e-mail-shaped match that is an address: not `git@host`, not an npm scope (`x@scope.io/pkg`), not `a.@b.c`. */
function isEmail(match: string, next: string | undefined): boolean {
  const local = match.slice(0, match.indexOf('@'));
  return !NOT_EMAIL_LOCAL.has(local.toLowerCase()) && !local.endsWith('.') && next !== '/';
}

function hintMatches(hint: Rule['hint'], text: string): boolean {
  if (hint === undefined) return true;
  if (typeof hint === 'string') return text.includes(hint);
  if (Array.isArray(hint)) return hint.every((h) => text.includes(h));
  return hint.test(text);
}

function applyRule(rule: Rule, text: string): string {
  return text.replace(rule.pattern, (...args: unknown[]) => {
    const match = args[0] as string;
    if (rule.group === undefined) return SECRET_MASK;
    const groups = args.slice(1, -2) as (string | undefined)[];
    const secret = groups[rule.group - 1];
    if (!secret) return match;
    const before = groups.slice(0, rule.group - 1).join('');
    const after = groups
      .slice(rule.group)
      .map((g) => g ?? '')
      .join('');
    return before + SECRET_MASK + after;
  });
}

/** Masks secrets and e-mail addresses in `text`. Idempotent: masking masked text changes nothing. */
export function maskText(text: string): string {
  if (!text) return text;
  let out = text;
  for (const rule of RULES) {
    if (hintMatches(rule.hint, out)) out = applyRule(rule, out);
  }
  if (PREFIXES.test(out)) for (const rule of PREFIXED_RULES) if (hintMatches(rule.hint, out)) out = applyRule(rule, out);
  out = maskByContext(out, SECRET_MASK);
  if (out.includes('@')) out = maskEmails(out);
  return out;
}

const LOCAL_CHAR = /[A-Za-z0-9._%+-]/;
const ALNUM = /[A-Za-z0-9]/;
/** The domain after an '@', as EMAIL has it. */
const DOMAIN = /[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?)*\.[A-Za-z]{2,24}\b/y;

/**
 * Every EMAIL match, found from the '@' signs instead of trying the expression at every character: the local part is
 * the run of allowed characters before the '@' (at most 64, starting with a letter or digit), the domain what follows.
 */
function emailMatches(text: string): { at: number; end: number }[] {
  const found: { at: number; end: number }[] = [];
  let from = 0;
  for (let sign = text.indexOf('@'); sign !== -1; sign = text.indexOf('@', sign + 1)) {
    let start = sign;
    while (start > from && sign - start < 64 && LOCAL_CHAR.test(text[start - 1])) start--;
    while (start < sign && !ALNUM.test(text[start])) start++;
    if (start === sign) continue;
    DOMAIN.lastIndex = sign + 1;
    const domain = DOMAIN.exec(text);
    if (!domain) continue;
    const end = sign + 1 + domain[0].length;
    found.push({ at: start, end });
    from = end;
    sign = end - 1;
  }
  return found;
}

/** Masks the e-mail addresses in `text` (what maskText does last). */
export function maskEmails(text: string): string {
  let out = '';
  let last = 0;
  for (const { at, end } of emailMatches(text)) {
    if (!isEmail(text.slice(at, end), text[end])) continue;
    out += text.slice(last, at) + EMAIL_MASK;
    last = end;
  }
  return last ? out + text.slice(last) : text;
}

export const MASK_RULE_NAMES = [...RULES, ...PREFIXED_RULES, ...CONTEXT_RULES].map((r) => r.name);

/**
 * The version of the masking rules: data written under an older one (archive entries, the snapshot) is masked again
 * when the library starts (see store/archive.ts). Raise it whenever a rule masks more.
 */
export const MASK_RULES_VERSION = 5;

/** What masking would replace in `text`, rule by rule (for measuring it; masking itself uses maskText). */
export function findMasked(text: string): { rule: string; value: string }[] {
  const found: { rule: string; value: string }[] = [];
  for (const rule of [...RULES, ...(PREFIXES.test(text) ? PREFIXED_RULES : [])]) {
    if (!hintMatches(rule.hint, text)) continue;
    for (const m of text.matchAll(new RegExp(rule.pattern.source, rule.pattern.flags))) {
      const value = rule.group === undefined ? m[0] : m[rule.group];
      if (!value) continue;
      found.push({ rule: rule.name, value });
    }
  }
  for (const { rule, span } of contextSpans(text)) found.push({ rule, value: text.slice(span.start, span.end) });
  if (text.includes('@')) {
    for (const m of text.matchAll(new RegExp(EMAIL.source, EMAIL.flags))) {
      if (isEmail(m[0], text[m.index + m[0].length])) found.push({ rule: 'email', value: m[0] });
    }
  }
  return found;
}

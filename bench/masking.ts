/**
 * `npm run masking`: how well masking works, beside secretlint's recommended rule preset run on the same text.
 * Detection: generated secrets in every real format, each embedded in a sentence, must disappear. False positives:
 * everything masked in the sample transcripts (public projects' sessions, where real secrets are unlikely) is listed by
 * rule for inspection, per MB of text. Also: what secretlint finds there that we leave, and both throughputs.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { lintSource } from '@secretlint/core';
import { CONTEXTS, credentialValues, lookAlikes, PROSE_CONTEXTS, proseLookAlikes, proseValues } from './credential-contexts.js';
import { CONTEXT_RULES } from '../src/core/mask-context.js';
import { creator as recommended } from '@secretlint/secretlint-rule-preset-recommend';
import { findMasked, maskText } from '../src/core/mask.js';
import { mulberry32 } from './corpus.js';

const rand = mulberry32(99);
const pick = (chars: string, n: number): string => Array.from({ length: n }, () => chars[Math.floor(rand() * chars.length)]).join('');
const UP = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const AN = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const B64 = `${AN}+/`;
const URLSAFE = `${AN}-_`;

const FORMATS: Record<string, () => string> = {
  'AWS access key id': () => `AKIA${pick(UP, 16)}`,
  'AWS secret in assignment': () => `aws_secret_access_key = ${pick(B64, 40)}`,
  'GCP API key': () => `AIza${pick(URLSAFE, 35)}`,
  'GCP service-account key id': () => `"private_key_id": "${pick('0123456789abcdef', 40)}"`,
  'Azure storage key': () => `AccountKey=${pick(B64, 86)}==`,
  'GitHub classic token': () => `ghp_${pick(AN, 36)}`,
  'GitHub fine-grained token': () => `github_pat_${pick(AN, 22)}_${pick(AN, 59)}`,
  'GitLab token': () => `glpat-${pick(URLSAFE, 20)}`,
  'Slack bot token': () => `xoxb-${pick('0123456789', 12)}-${pick('0123456789', 13)}-${pick(AN, 24)}`,
  'Slack webhook': () => `https://hooks.slack.com/services/T${pick(UP, 8)}/B${pick(UP, 8)}/${pick(AN, 24)}`,
  'Stripe secret key': () => `sk_live_${pick(AN, 24)}`,
  'OpenAI project key': () => `sk-proj-${pick(URLSAFE, 74)}T3BlbkFJ${pick(URLSAFE, 74)}`,
  'OpenAI legacy key': () => `sk-${pick(AN, 20)}T3BlbkFJ${pick(AN, 20)}`,
  'Anthropic key': () => `sk-ant-api03-${pick(URLSAFE, 93)}AA`,
  'Hugging Face token': () => `hf_${pick('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz', 34)}`,
  'npm token': () => `npm_${pick(AN, 36)}`,
  'PyPI token': () => `pypi-AgEIcHlwaS5vcmc${pick(URLSAFE, 60)}`,
  JWT: () => `eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJ${pick(URLSAFE, 40)}.${pick(URLSAFE, 43)}`,
  'private key block': () => `-----BEGIN OPENSSH PRIVATE KEY-----\n${pick(B64, 70)}\n${pick(B64, 70)}\n-----END OPENSSH PRIVATE KEY-----`,
  'database URL password': () => `postgres://app:${pick(AN, 16)}@db.example.internal:5432/prod`,
  'password assignment': () => `DB_PASSWORD=${pick(AN, 10)}!${pick(AN, 6)}`,
  'token in JSON': () => `"api_key": "${pick(AN, 32)}"`,
  'SendGrid key': () => `SG.${pick(URLSAFE, 22)}.${pick(URLSAFE, 43)}`,
  'Shopify token': () => `shpat_${pick('0123456789abcdef', 32)}`,
  '1Password service token': () => `ops_eyJ${pick(B64, 120)}`,
  'Linear key': () => `lin_api_${pick(AN, 40)}`,
  'DigitalOcean token': () => `dop_v1_${pick('0123456789abcdef', 64)}`,
  'Twilio key': () => `SK${pick('0123456789abcdef', 32)}`,
  'Databricks token': () => `dapi${pick('0123456789abcdef', 32)}`,
  'Doppler token': () => `dp.pt.${pick(AN, 43)}`,
  'Postman key': () => `PMAK-${pick('0123456789abcdef', 24)}-${pick('0123456789abcdef', 34)}`,
  'Supabase token': () => `sbp_${pick('0123456789abcdef', 40)}`,
  'Sentry token': () => `sntrys_eyJ${pick(B64, 60)}`,
  'Grafana service token': () => `glsa_${pick(AN, 32)}_${pick('0123456789abcdef', 8)}`,
  'Replicate token': () => `r8_${pick(AN, 37)}`,
  'Perplexity key': () => `pplx-${pick(AN, 48)}`,
  'OpenRouter key': () => `sk-or-v1-${pick('0123456789abcdef', 64)}`,
  'Figma token': () => `figd_${pick(URLSAFE, 40)}`,
  'age secret key': () => `AGE-SECRET-KEY-1${pick('QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L', 58)}`,
  'Terraform Cloud token': () => `${pick(AN, 14)}.atlasv1.${pick(URLSAFE, 64)}`,
  'Telegram bot token': () => `${pick('123456789', 9)}:AA${pick(URLSAFE, 33)}`,
  'Mailchimp key': () => `${pick('0123456789abcdef', 32)}-us${pick('123456789', 1)}`,
  'Google OAuth client secret': () => `GOCSPX-${pick(URLSAFE, 28)}`,
  'Azure AD client secret': () => `${pick(AN, 3)}8Q~${pick(AN, 34)}`,
  'Docker Hub token': () => `dckr_pat_${pick(URLSAFE, 27)}`,
  'Vault token': () => `hvs.${pick(URLSAFE, 95)}`,
  'e-mail address': () => `${pick('abcdefghijklmnopqrstuvwxyz', 7)}.${pick('abcdefghijklmnopqrstuvwxyz', 5)}@example.com`,
};

/** The part that must disappear: for assignments and URLs, the value. */
function secretPart(s: string): string {
  if (s.startsWith('AccountKey=')) return s.slice('AccountKey='.length);
  if (s.startsWith('postgres://')) return s.slice(s.indexOf(':', 11) + 1, s.indexOf('@'));
  const assignment = /^[^=:]*?(?:[:=]\s*"?)([^"]+)"?$/.exec(s);
  return s.includes('-----BEGIN') || !assignment || /^(sk|xox|https)/.test(s) ? s : assignment[1];
}

const secretlintConfig = { rules: [{ id: '@secretlint/secretlint-rule-preset-recommend', rule: recommended }] };
/** The spans secretlint's recommended preset reports in a text. */
async function secretlintSpans(text: string): Promise<string[]> {
  const result = await lintSource({
    source: { content: text, filePath: '/transcript.txt', ext: '.txt', contentType: 'text' },
    options: { config: secretlintConfig, noPhysicFilePath: true },
  });
  return result.messages.map((m) => text.slice(m.range[0], m.range[1]));
}

console.log('## Detection (200 generated values per format, each inside a sentence)\n');
console.log('| format | ours | secretlint recommended |');
console.log('|---|---|---|');
let all = 0;
let hit = 0;
let theirs = 0;
for (const [name, make] of Object.entries(FORMATS)) {
  let ok = 0;
  let found = 0;
  for (let i = 0; i < 200; i++) {
    const secret = make();
    const sentence = `please use ${secret} for the deploy`;
    const masked = maskText(sentence);
    if (!masked.includes(secretPart(secret)) && /\[redacted-(secret|email)\]/.test(masked)) ok++;
    if ((await secretlintSpans(sentence)).some((span) => span.includes(secretPart(secret)) || secretPart(secret).includes(span))) found++;
  }
  all += 200;
  hit += ok;
  theirs += found;
  console.log(`| ${name} | ${((ok / 200) * 100).toFixed(1)}% | ${((found / 200) * 100).toFixed(1)}% |`);
}
console.log(`| **all** (${all} values) | **${((hit / all) * 100).toFixed(2)}%** | **${((theirs / all) * 100).toFixed(2)}%** |`);

const LOOK_ALIKES = lookAlikes();
console.log(`\n## Credentials by context (${CONTEXTS.length} contexts × 50 values, ${LOOK_ALIKES.length} look-alikes that must stay)\n`);
console.log('| | ours | secretlint recommended |');
console.log('|---|---|---|');
{
  let ours = 0;
  let lint = 0;
  let total = 0;
  const missedContexts = new Set<string>();
  for (const context of CONTEXTS)
    for (const value of credentialValues(50)) {
      const text = context.replace('{}', value);
      total++;
      if (!maskText(text).includes(value)) ours++;
      else missedContexts.add(context);
      if ((await secretlintSpans(text)).some((span) => span.includes(value))) lint++;
    }
  let oursFp = 0;
  let lintFp = 0;
  for (const text of LOOK_ALIKES) {
    if (maskText(text) !== text) oursFp++;
    if ((await secretlintSpans(text)).length) lintFp++;
  }
  console.log(`| detected (${total} values) | ${((ours / total) * 100).toFixed(2)}% | ${((lint / total) * 100).toFixed(2)}% |`);
  console.log(`| look-alikes masked (false positives) | ${oursFp} of ${LOOK_ALIKES.length} | ${lintFp} of ${LOOK_ALIKES.length} |`);
  if (missedContexts.size) console.log(`\nContexts where a value survived: ${[...missedContexts].map((c) => `\`${c}\``).join(', ')}`);
}

const PROSE_LOOK = proseLookAlikes();
console.log(
  `\n## Credentials in sentences (${PROSE_CONTEXTS.length} sentences in 13 languages × 30 values, ${PROSE_LOOK.length} look-alikes that must stay)\n`,
);
console.log('| | ours | secretlint recommended |');
console.log('|---|---|---|');
{
  let ours = 0;
  let lint = 0;
  let total = 0;
  const masked = new Set<string>();
  for (const { text: context, kind } of PROSE_CONTEXTS) {
    let all = true;
    for (const value of proseValues(kind, 30)) {
      const text = context.replace('{}', value);
      total++;
      if (!maskText(text).includes(value)) ours++;
      else all = false;
      if ((await secretlintSpans(text)).some((span) => span.includes(value))) lint++;
    }
    if (all) masked.add(context);
  }
  let oursFp = 0;
  let lintFp = 0;
  for (const text of PROSE_LOOK) {
    if (maskText(text) !== text) oursFp++;
    if ((await secretlintSpans(text)).length) lintFp++;
  }
  console.log(`| sentences whose every value is masked | ${masked.size} of ${PROSE_CONTEXTS.length} | |`);
  console.log(`| values masked (${total}) | ${((ours / total) * 100).toFixed(2)}% | ${((lint / total) * 100).toFixed(2)}% |`);
  console.log(`| look-alikes masked (false positives) | ${oursFp} of ${PROSE_LOOK.length} | ${lintFp} of ${PROSE_LOOK.length} |`);
}

/** Every string value of a JSON or JSON-lines file, decoded; lines that are not JSON as they are. */
function decodedStrings(text: string): string[] {
  const out: string[] = [];
  const walkValue = (v: unknown): void => {
    if (typeof v === 'string') out.push(v);
    else if (Array.isArray(v)) v.forEach(walkValue);
    else if (v && typeof v === 'object') Object.values(v).forEach(walkValue);
  };
  for (const line of text.trimStart().startsWith('[') || text.trimStart().startsWith('{') ? [text, ...text.split('\n')] : text.split('\n')) {
    try {
      walkValue(JSON.parse(line));
    } catch {
      if (line.length < 100_000 && line !== text) out.push(line);
    }
  }
  return out;
}

const corpus = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'shared', 'corpus');
const files: string[] = [];
const walk = (dir: string): void => {
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) walk(full);
    else if (/\.(jsonl?|md)$/.test(name)) files.push(full);
  }
};
walk(corpus);
let bytes = 0;
const byRule = new Map<string, Map<string, number>>();
let oursMs = 0;
let theirsMs = 0;
const missed = new Set<string>();
let secretlintFound = 0;
for (const file of files) {
  const text = readFileSync(file, 'utf8');
  bytes += text.length;
  let t = performance.now();
  const masked = maskText(text);
  oursMs += performance.now() - t;
  t = performance.now();
  const spans = await secretlintSpans(text);
  theirsMs += performance.now() - t;
  secretlintFound += spans.length;
  for (const span of spans) if (masked.includes(span)) missed.add(span.slice(0, 40));
  // what ingest masks: the strings of each JSON record, decoded (a password in a tool call is `"password": "x"` there)
  for (const piece of file.endsWith('.md') ? [text] : decodedStrings(text))
    for (const { rule, value } of findMasked(piece)) {
      if (!byRule.has(rule)) byRule.set(rule, new Map());
      const m = byRule.get(rule)!;
      m.set(value, (m.get(value) ?? 0) + 1);
    }
}
console.log(`\n## What masking removes from the sample transcripts (${files.length} files, ${(bytes / 1e6).toFixed(1)} MB)\n`);
console.log('| rule | spans | distinct | per MB | examples |');
console.log('|---|---|---|---|---|');
for (const [rule, values] of [...byRule].sort((a, b) => b[1].size - a[1].size)) {
  const spans = [...values.values()].reduce((a, b) => a + b, 0);
  const examples = [...values.keys()]
    .slice(0, 8)
    .map((v) => `\`${v.slice(0, 24).replace(/[|`\n]/g, ' ')}${v.length > 24 ? '…' : ''}\``)
    .join(', ');
  console.log(`| ${rule} | ${spans} | ${values.size} | ${(spans / (bytes / 1e6)).toFixed(2)} | ${examples} |`);
}

console.log('\nEvery distinct span the context rules mask in the samples (to be justified one by one):\n');
for (const [rule, values] of byRule)
  if (CONTEXT_RULES.some((r) => r.name === rule))
    for (const [value, n] of values) console.log(`- ${rule}: \`${value.slice(0, 60).replace(/[`\n]/g, ' ')}\` ×${n}`);

console.log(
  `\nsecretlint's recommended preset reports ${secretlintFound} spans in the same files; left unmasked by us: ${missed.size ? [...missed].map((m) => `\`${m}\``).join(', ') : 'none'}.`,
);
console.log(
  `Throughput over ${(bytes / 1e6).toFixed(1)} MB: ours ${(bytes / 1e6 / (oursMs / 1000)).toFixed(1)} MB/s, secretlint ${(bytes / 1e6 / (theirsMs / 1000)).toFixed(1)} MB/s (whole files; per turn, as ingest masks, secretlint's per-call setup costs more).`,
);

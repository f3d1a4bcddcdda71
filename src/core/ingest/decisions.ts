/**
 * Decisions: statements in a conversation where the user and the agent settle something — "let's go with …", "we'll
 * use X instead of Y", "decided to …", "don't …, use …", "Decision: …". Found by rules (tested, and judged on labelled
 * statements from real transcripts in docs/BENCHMARKS.md), sentence by sentence, in prompts and replies; questions,
 * conditionals and options still being weighed are not decisions.
 */
import type { Turn } from '../model.js';

/** The forms a settled choice takes. */
const SETTLED: RegExp[] = [
  /\b(?:let'?s|let us)\s+(?:go\s+with|use|stick\s+with|switch\s+to|keep|adopt|move\s+to|pick|choose|settle\s+on|standardi[sz]e\s+on|drop|replace)\b/i,
  /\bwe(?:'ll|\s+will|'re\s+going\s+to|\s+are\s+going\s+to|'ve|\s+have)?\s+(?:go(?:ne)?\s+with|switch(?:ed)?\s+to|stick\s+with|adopt(?:ed)?|standardi[sz]ed?\s+on|settled\s+on|picked|chose|chosen)\b/i,
  /\b(?:we|i)(?:'ve|\s+have)?\s+decided\b/i,
  /\b(?:decided|agreed|settled)\s+(?:to|on|that)\b/i,
  /\b(?:the\s+)?decision(?:\s+is|\s+was)?\s*[:—-]\s*\S/i,
  /^(?:decision|decided|we\s+chose|chosen)\s*:/i,
  /\b(?:use|go\s+with|prefer)\s+[^.?!]{1,60}?\s+(?:instead\s+of|rather\s+than)\s+\S/i,
  /\bdon'?t\s+(?:use|add|do|write|call|keep)\b[^.?!]{1,80}?[,;—-]\s*(?:use|do|add|write|call|prefer|go\s+with)\b/i,
  /\b(?:from\s+now\s+on|going\s+forward)\b[^.?!]{0,40}?\b(?:use|always|never|we)\b/i,
  /\bwe(?:'ll|\s+will)\s+use\b/i,
  /^instead\s+of\b[^.?!]{1,80},\s*(?:we(?:'ll|\s+will|\s+now)?|i(?:'ll)?|let'?s)\s+(?:use|go|switch|do|keep|track|store|call)\b/i,
  /\byou'?re\s+right[,.]?\s+(?:we|i)\s+should\s+(?:be\s+)?(?:use|using|go|switch|keep)\b/i,
];

/** One thing taken over another ("… instead of …", "… rather than …"), said of what is or will be done. */
const OVER_ANOTHER = /\b(?:instead\s+of|rather\s+than)\b/i;
/** …but not an observation, a rationale, or what already was so. */
const NOT_CHOSEN = /\b(?:i\s+(?:can\s+)?see|looks\s+like|seems|already|because|more\s+reliable|would|instead\s+of\s+(?:a|an|the)\s+\w+,\s+(?:you|it))\b/i;

/** What a person tells the agent to do, settling it: "use the Spinner instead of …", "switch to a bar graph". */
const DIRECTED = /^(?:please\s+)?(?:use|switch\s+to|go\s+with|stick\s+with|don'?t\s+use|do\s+not\s+use|always\s+use|never\s+use|prefer)\b/i;

/** Telling the agent which of its tools to work with ("use the file tools to look"): not a decision about the project. */
const TOOL_USE = /^(?:please\s+)?use\s+(?:\S+\s+){0,2}tools?\b/i;

/** Still weighing, asking, or supposing: not settled. */
const UNSETTLED =
  /\b(?:if|whether|should\s+we|shall\s+we|could\s+we|can\s+we|would\s+you|do\s+you\s+want|maybe|perhaps|might|consider(?:ing)?|option|alternatively|or\s+we\s+could|unless|once\s+you\s+decide|haven'?t\s+decided|not\s+decided|undecided|let\s+me\s+know|we\s+can|you\s+can|i\s+can)\b/i;

const MAX_SENTENCE = 400;

/** The sentences of a text, code blocks and quoted lines left out (a decision is said in prose). */
export function sentences(text: string): string[] {
  const prose = text
    .replace(/```[\s\S]*?(?:```|$)/g, '\n')
    .split('\n')
    .filter((line) => !/^\s*(?:>|\||\$ |[-+] |\d+→)/.test(line))
    .join('\n');
  const out: string[] = [];
  for (const part of prose.split(/(?<=[.!?])\s+|\n{2,}|\n(?=\s*(?:[-*•]|\d+\.)\s)/)) {
    const sentence = part
      .replace(/^\s*(?:[-*•]|\d+\.)\s+/, '')
      .replace(/\s+/g, ' ')
      .trim();
    if (sentence.length >= 12 && sentence.length <= MAX_SENTENCE) out.push(sentence);
  }
  return out;
}

/** Whether one sentence settles something. */
export function isDecision(sentence: string, role: 'user' | 'assistant' = 'assistant'): boolean {
  if (/\?\s*$/.test(sentence)) return false;
  // (what would take it first: most sentences settle nothing, and are let go after these few tests)
  const taken =
    SETTLED.some((re) => re.test(sentence)) ||
    (role === 'user' && DIRECTED.test(sentence) && !TOOL_USE.test(sentence)) ||
    (OVER_ANOTHER.test(sentence) && !NOT_CHOSEN.test(sentence));
  return taken && !UNSETTLED.test(sentence);
}

/** Words without one of which no rule takes a sentence: a turn holding none is not split into sentences at all. */
const ANY_RULE =
  /instead\s+of|rather\s+than|\blet'?s\b|\blet\s+us\b|\bwe(?:'ll|'re|'ve|\s+will|\s+are|\s+have|\s+go|\s+switch|\s+stick|\s+adopt|\s+standardi|\s+settled|\s+picked|\s+chose)\b|decid|decision|agreed|settled|chosen|don'?t|from\s+now\s+on|going\s+forward|you'?re\s+right|\b(?:use|switch|go\s+with|stick\s+with|prefer)\b/i;

/** The decisions a turn states (prompts and replies only: tool output and files are not where people decide). */
export function decisionsIn(turn: Pick<Turn, 'kind' | 'role' | 'text'>): string[] {
  if (turn.kind !== 'conversation' || (turn.role !== 'user' && turn.role !== 'assistant')) return [];
  if (!ANY_RULE.test(turn.text)) return [];
  const role = turn.role;
  return sentences(turn.text).filter((s) => isDecision(s, role));
}

/** At most this many decisions are kept per session (`Session.decisions`): a long planning session states dozens. */
const KEPT_PER_SESSION = 30;

/** `Session.decisions`: each decision its turns state, as `<turn index>\t<sentence>`, found when it is read. */
export function sessionDecisions(turns: readonly Pick<Turn, 'kind' | 'role' | 'text'>[]): string[] {
  const out: string[] = [];
  turns.forEach((turn, index) => {
    for (const sentence of decisionsIn(turn)) if (out.length < KEPT_PER_SESSION) out.push(`${index}\t${sentence}`);
  });
  return out;
}

const STOP = new Set(
  'the a an of for to in on with and or we it its this that these our your my all just directly existing new now only also instead rather than be is are was them their there here which when from into as by at'.split(
    ' ',
  ),
);
const words = (text: string): string[] =>
  text
    .replace(/[`*_"“”']/g, ' ')
    .toLowerCase()
    .split(/[^\p{L}\p{N}.+#-]+/u)
    .map((w) => w.replace(/[.]+$/, ''))
    .filter((w) => w.length >= 2 && !STOP.has(w));

/**
 * What a decision took and what it turned down, to tell when a later one replaces it: the first words after its verb
 * ("use MongoDB for the orders": mongodb, orders), and after "instead of" / "rather than" (the alternative refused).
 */
export function decisionChoice(sentence: string): { took: Set<string>; refused: Set<string> } {
  const [before, after] = sentence.split(/\b(?:instead\s+of|rather\s+than)\b/i);
  const verb = /\b(?:use|using|uses|go\s+with|switch(?:ed)?\s+to|stick\s+with|adopt|choose|chose|pick|keep|prefer|decided\s+(?:on|to\s+use))\b/gi;
  let from = 0;
  for (const m of before.matchAll(verb)) from = (m.index ?? 0) + m[0].length;
  return { took: new Set(words(before.slice(from)).slice(0, 3)), refused: new Set(words(after ?? '').slice(0, 3)) };
}

/** Turns an adapter's raw turns into a masked, normalised Session. */
import { definedAcronyms } from '../../index/short-forms.js';
import { isPrompt, localDay, type ParsedSession, type SourceId, type Turn } from '../../model.js';
import { maskText } from '../../mask.js';
import { encodeTouches, fileTouches } from '../../files/touches.js';
import { sessionDecisions } from '../decisions.js';
import { sessionTopics } from '../topics.js';
import { preferenceEvidence } from '../preference-evidence.js';

/** A turn as an adapter reads it: a Turn before it gets its id. */
export type RawTurn = Omit<Turn, 'id'>;

export interface RawSession {
  source: SourceId;
  nativeId: string;
  topic?: string;
  filename: string;
  file: string;
  size: number;
  created?: string;
  updated?: string;
  /** Calendar day the tool filed the session under (CodeArchitect's date folder), overriding the timestamp's. */
  day?: string;
  project?: string;
  branch?: string;
  parentId?: string;
  turns: RawTurn[];
}

/** Whether the turns hold a prompt or reply with words (a file of only tool calls or metadata is not a session). */
export const hasConversation = (turns: readonly RawTurn[]): boolean => turns.some((t) => t.kind === 'conversation' && t.text.trim() !== '');

const TITLE_MAX = 120;
const BARE_COMMAND = /^\/[\w:-]+$/;

/** Claude Code stores a slash command as tags (also copied into SpecStory exports): show it as typed. */
export function slashCommandText(text: string): string | undefined {
  const command = /<command-name>([^<]*)<\/command-name>/.exec(text);
  if (!command) return undefined;
  const args = /<command-args>([\s\S]*?)<\/command-args>/.exec(text)?.[1]?.trim();
  return `${command[1].trim()}${args ? ` ${args}` : ''}`;
}

/** Bidirectional overrides in a one-line title can only be used to disguise it. */
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/g;

/** The latest of some ISO times (undefined: none given). */
export function latestTime(...times: (string | undefined)[]): string | undefined {
  let latest: string | undefined;
  for (const t of times) if (t && (!latest || Date.parse(t) > Date.parse(latest))) latest = t;
  return latest;
}

export function titleFrom(text: string | undefined): string | undefined {
  if (!text) return undefined;
  const line = text.replace(BIDI_CONTROLS, '').replace(/\s+/g, ' ').trim();
  if (!line) return undefined;
  return line.length > TITLE_MAX ? `${line.slice(0, TITLE_MAX - 1)}…` : line;
}

export function buildSession(raw: RawSession, fallbackTime: Date): ParsedSession {
  const id = `${raw.source}:${raw.nativeId}`;
  const turns: Turn[] = [];
  for (const t of raw.turns) {
    // a tool's output is kept as it was printed (a read gives it back byte for byte, final newline included)
    const text = maskText(t.role === 'tool' ? t.text : t.text.trim());
    if (!text.trim()) continue;
    const turn: Turn = { id: `${id}#${turns.length}`, role: t.role, kind: t.kind, text };
    if (t.timestamp) turn.timestamp = t.timestamp;
    if (t.tool) turn.tool = t.tool;
    if (t.sidechain) turn.sidechain = true;
    if (t.line !== undefined) turn.line = t.line;
    if (t.written?.length) turn.written = t.written.map(maskText);
    turns.push(turn);
  }
  const times = turns
    .map((t) => t.timestamp)
    .filter((t): t is string => !!t)
    .sort();
  const created = raw.created ?? times[0] ?? fallbackTime.toISOString();
  // the last activity is the latest time the session shows, whichever record said it
  const updated = latestTime(raw.updated, times[times.length - 1]) ?? created;
  const prompts = turns.filter(isPrompt);
  // A bare slash command (`/clear`) names nothing; the first real prompt does.
  const firstUser = (prompts.find((t) => !BARE_COMMAND.test(t.text)) ?? prompts[0])?.text;
  const topic = maskText(titleFrom(raw.topic) ?? titleFrom(firstUser) ?? raw.filename);
  const firstDay = raw.day ?? localDay(new Date(created));
  const lastDay = raw.day ?? localDay(new Date(updated));
  const session: ParsedSession = {
    id,
    source: raw.source,
    nativeId: raw.nativeId,
    topic,
    filename: raw.filename,
    file: raw.file,
    size: raw.size,
    created,
    updated,
    firstDay,
    lastDay: lastDay < firstDay ? firstDay : lastDay,
    turns,
  };
  if (raw.project) session.project = maskText(raw.project);
  if (raw.branch) session.branch = raw.branch;
  if (raw.parentId) session.parentId = raw.parentId;
  // (none found is kept too: a session restored without them is read whole to find them, answers/tags.ts)
  session.topics = sessionTopics(topic, turns);
  const acronyms = definedAcronyms(turns);
  if (acronyms.length) session.acronyms = acronyms;
  const preferences = preferenceEvidence(turns);
  if (preferences.length) session.preferences = preferences;
  sessionFacts(session);
  return session;
}

/** What a session's turns show beside its text: the files its agent touched and the decisions stated (both searched). */
export function sessionFacts(session: ParsedSession): void {
  const files = fileTouches(session.turns, session.project);
  if (files.length) session.files = encodeTouches(files);
  const decisions = sessionDecisions(session.turns);
  if (decisions.length) session.decisions = decisions;
}

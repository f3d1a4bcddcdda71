/**
 * A running engine as its user reads it (`session-search engine status`, and Session Search: Show Engine Status in a
 * window): one line per aspect, under a line that says which engine it is.
 */
import type { EngineAbout } from './protocol.js';
import { grouped } from '../core/digits.js';

/** A duration as people read it: 45 s, 12 min, 3 h 5 min. */
export function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  const min = Math.round(s / 60);
  return min < 60 ? `${min} min` : `${Math.floor(min / 60)} h${min % 60 ? ` ${min % 60} min` : ''}`;
}

const mb = (bytes: number): string => `${Math.round(bytes / 1048576)} MB`;
const plural = (n: number, one: string, many = `${one}s`): string => `${grouped(n)} ${n === 1 ? one : many}`;

/** What the watchers hold: roots, the folders under them with a system watch each (and the user's limit), roots polled. */
function watching(w: NonNullable<EngineAbout['watching']>, limit: number | undefined): string {
  if (!w.started) return 'not yet (the watchers start a second after the first load)';
  const folders =
    w.watches === undefined
      ? ''
      : `, ${plural(w.watches, 'folder')} in them (a system watch each${limit ? `, of the ${grouped(limit)} this user may hold` : ''})`;
  const polled = w.polled ? `; ${plural(w.polled, 'root')} rescanned on a timer instead (a network drive, or no watch left)` : '';
  return `${plural(w.folders, 'root')}${folders}${polled}`;
}

/** The status of a running engine, one line per aspect. */
export function describeEngine(about: EngineAbout | Pick<EngineAbout, 'pid' | 'version' | 'dataDir'>): string {
  const head = `Engine of ${about.dataDir}: running, pid ${about.pid}, version ${about.version}`;
  if (!('status' in about))
    return `${head}\n  An earlier build: it cannot say more. \`session-search engine stop\` stops it; the next command starts this build's.\n`;
  const { status, clients } = about;
  const loaded = status.complete
    ? `${grouped(status.sessions)} searchable; the index is complete`
    : `${grouped(status.sessions)} searchable so far; indexing, ${grouped(status.filesDone)} of ${grouped(status.filesTotal)} files read${status.stopped ? ` (stopped: ${status.stopped})` : ''}`;
  const meaning = { ready: 'learned', building: 'being learned (answers rank by words until it is ready)', empty: 'not learned yet (answers rank by words)' }[
    about.meaning
  ];
  const idle =
    about.stopsInMs === null
      ? `after ${duration(about.idleStopMs)} with no client; clients are connected`
      : `in ${duration(about.stopsInMs)} unless a client connects (after ${duration(about.idleStopMs)} with no client)`;
  return [
    `${head}, up ${duration(Date.now() - Date.parse(about.startedAt))}`,
    `  Sessions:  ${loaded}`,
    ...(status.storage ? [`  Storage:   ${status.storage.detail}; ${status.storage.advice}`] : []),
    `  Meaning:   the model that ranks by meaning is ${meaning}`,
    `  Memory:    ${mb(about.rssBytes)} resident (JavaScript heap ${mb(about.heapUsedBytes)})`,
    ...(about.watching ? [`  Watching:  ${watching(about.watching, about.watchLimit)}`] : []),
    `  Clients:   ${plural(clients.windows, 'VS Code window')}, ${plural(clients.agents, 'MCP server')}, ${plural(clients.commands, 'other command')}`,
    `  Stops:     ${idle}`,
    `  Log:       ${about.log}`,
    '',
  ].join('\n');
}

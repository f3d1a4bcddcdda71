/** The one view every answer reads: the sessions, the index over them, the roots, and what the library looked up. */
import type { FileIndex } from '../files/file-index.js';
import type { SearchIndex } from '../index/engine.js';
import type { TitleIndex } from '../index/title-index.js';
import type { Session } from '../model.js';
import type { SourceRoot } from '../ingest/sources/registry.js';
import type { WorktreeRoots } from './worktrees.js';
import type { SemanticIndex } from '../semantic/semantic-index.js';
import type { MeaningLeg } from '../embed/leg.js';
import type { TagStore } from '../store/tags.js';
import type { PreferenceStore } from '../store/preferences.js';
import type { TurnStore } from '../store/turn-store.js';
import type { ShortForms } from '../index/short-forms.js';

export interface LibraryView {
  readonly sessions: Map<string, Session>;
  /** Where the sessions' turns are read (those on disk, and those in memory). */
  readonly turns: TurnStore;
  /** The current index (a restored snapshot's, or one being built). */
  readonly index: SearchIndex;
  readonly roots: readonly SourceRoot[];
  readonly worktrees: WorktreeRoots;
  /** The semantic leg (vectors once a model is learned). */
  readonly semantic: SemanticIndex;
  /** Meaning from the user's own model, when one is configured: one more list in the fusion. */
  readonly meaning?: MeaningLeg;
  /** Sessions by the files they touched (absent in the team archive's view). */
  readonly files?: FileIndex;
  /** Sessions by title words, built on first use. */
  titles(): TitleIndex;
  /** The tags people gave sessions. */
  readonly tags: TagStore;
  /** The short forms queries expand with: the common ones and the acronyms the sessions define. */
  shortForms(): ShortForms;
  /** The decisions a session's turns state (ingest/decisions.ts), and the preferences its prompts show: its own, or
   * those of the snapshot it was restored from (store/restored-lists.ts). */
  decisionsOf(session: Session): readonly string[] | undefined;
  preferencesOf(session: Session): Session['preferences'];
  /** Preferences set by hand. */
  readonly preferences: PreferenceStore;
  /** Where the view holds only candidates (the team archive's), the inverse document frequencies to rank with. */
  readonly idf?: (term: string) => number | undefined;
}

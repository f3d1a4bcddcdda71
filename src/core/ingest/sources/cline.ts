/** Cline: task folders under `globalStorage/saoudrizwan.claude-dev/tasks/` (see task-folders.ts). */
import { taskFolderSource } from './task-folders.js';

export const clineSource = taskFolderSource('cline', 'Cline');

/** Roo Code (and its Kilo Code fork): task folders under `globalStorage/rooveterinaryinc.roo-cline/tasks/`. */
import { taskFolderSource } from './task-folders.js';

export const rooSource = taskFolderSource('roo', 'Roo Code');

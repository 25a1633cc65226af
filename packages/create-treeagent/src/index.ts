export { type CreateOptions, createProject } from './create-project.js';
export { main } from './main.js';
export type { Language, Template, TreeFormat } from './project-kind.js';

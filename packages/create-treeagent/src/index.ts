export { type CreateOptions, createProject, type Language, type Template } from './create-project.js';
export { main } from './main.js';

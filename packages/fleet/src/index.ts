export * from './subjects.js';
export * from './messages.js';
export * from './enrollment.js';

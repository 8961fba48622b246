export { Dispatcher } from './dispatcher.js';

export { Dispatcher, type DispatcherDeps, type DispatcherOptions } from './dispatcher.js';

// The Node entry has the same API as the default one (index.d.ts).
export * from './index.js';

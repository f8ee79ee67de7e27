// Telling a function's outputs apart is shared with the agents' run tool: the pure code lives in
// src/platform/outputs.ts.
export * from '../platform/functions/outputs';

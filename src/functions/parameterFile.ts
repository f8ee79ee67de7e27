// Parameter files are read by the Run command and by the agents' run tool: the pure code lives in
// src/core/parameterFile.ts; this module keeps the functions feature's imports short.
export * from '../core/parameterFile';

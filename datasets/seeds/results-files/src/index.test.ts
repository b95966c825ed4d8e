import { start } from './index';
if (!(start('2026-01-01') instanceof Date)) throw new Error('start');

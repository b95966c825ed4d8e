import { isoDay } from './date';
if (isoDay(new Date('2026-03-02')) !== '2026-03-02') throw new Error('isoDay');

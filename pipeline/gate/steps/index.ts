/** The gate's steps, in order: a list as data (one file per step, each with static meta). */
import type { GateStep } from '../types.ts';
import { step as ready } from './ready.ts';
import { step as discover } from './discover.ts';
import { step as call } from './call.ts';
import { step as concurrency } from './concurrency.ts';
import { step as hang } from './hang.ts';
import { step as crash } from './crash.ts';
import { step as kill } from './kill.ts';
import { step as isolation } from './isolation.ts';
import { step as cancel } from './cancel.ts';
import { step as budget } from './budget.ts';
import { step as regression } from './regression.ts';
import { step as compliance } from './compliance.ts';

export const STEPS: readonly GateStep[] = [ready, discover, call, concurrency, hang, crash, kill, isolation, cancel, budget, regression, compliance];

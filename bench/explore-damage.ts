/**
 * `npm run explore:damage [-- --cases N]`: the damage properties of test/damage.ts with random seeds and many runs,
 * for exploration beyond the fixed seeds `npm test` replays. Prints every failing seed and path; add the seed to
 * SEEDS in test/damage.test.ts so it is replayed from then on. Exits 1 when any case failed.
 */
import fc from 'fast-check';
import { damageChecks } from '../test/damage.js';

const at = process.argv.indexOf('--cases');
const cases = at > 0 ? Number(process.argv[at + 1]) : 2000;
const perSeed = 25;
const checks = await damageChecks(fc);
let ran = 0;
let failed = 0;
const started = performance.now();
while (ran < cases) {
  for (const check of checks) {
    const seed = Math.floor(Math.random() * 2 ** 31);
    const numRuns = Math.min(perSeed, cases - ran);
    if (numRuns <= 0) break;
    try {
      await check.run({ seed, numRuns });
    } catch (err) {
      failed++;
      console.log(`FAILED ${check.name}: seed ${seed}\n${err instanceof Error ? err.message : String(err)}\n`);
    }
    ran += numRuns;
  }
  console.log(`${ran} of ${cases} cases, ${failed} failing seed(s), ${((performance.now() - started) / 1000).toFixed(0)} s`);
}
console.log(`${ran} random damage cases (snapshot without and with an archive, archive entries): ${failed} failing seed(s)`);
process.exit(failed ? 1 : 0);

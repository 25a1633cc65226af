import { describeEnvironmentScenario } from '../test-support/environment-scenario.js';

// The versions and the sessions' versions in the data directory's SQLite file.
describeEnvironmentScenario('SQLite', async () => ({ flags: [], dispose: async () => {} }));

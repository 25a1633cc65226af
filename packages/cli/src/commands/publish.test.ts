import { describePublishScenario } from '../test-support/publish-scenario.js';

// The versions in the data directory's SQLite file (the scenario passes --data).
describePublishScenario('SQLite', async () => ({ flags: [], dispose: async () => {} }));

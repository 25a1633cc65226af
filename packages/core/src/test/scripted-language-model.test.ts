import { conformanceAnswer, describeLanguageModel } from '../conformance/language-model-conformance.js';
import { ScriptedLanguageModel } from './scripted-language-model.js';

describeLanguageModel(
  'ScriptedLanguageModel (mock)',
  async () => ({
    model: new ScriptedLanguageModel({
      answers: (request) => conformanceAnswer(Boolean(request.responseFormat)),
    }),
  }),
  {
    skip: [
      {
        reason: 'a mock that answers from its script at once: it does not read the abort signal',
        tests: [
          'an aborted signal rejects generate and stream with its reason',
          'aborting during a stream stops it with the reason; the model stays usable',
        ],
      },
    ],
  },
);

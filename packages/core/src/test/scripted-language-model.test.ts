import { conformanceAnswer, describeLanguageModel } from '../conformance/language-model-conformance.js';
import { ScriptedLanguageModel } from './scripted-language-model.js';

describeLanguageModel('ScriptedLanguageModel (mock)', async () => ({
  model: new ScriptedLanguageModel({
    answers: (request) => conformanceAnswer(Boolean(request.responseFormat)),
  }),
}));

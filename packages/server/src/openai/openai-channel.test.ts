import { describeRouteChannel } from '../conformance/index.js';
import { openAiCompatible } from './openai-channel.js';

describeRouteChannel('the OpenAI-compatible endpoint (openAiCompatible())', () => openAiCompatible());

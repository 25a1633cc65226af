import { describeRouteChannel } from '../test-support/describe-route-channel.js';
import { openAiCompatible } from './openai-channel.js';

describeRouteChannel('the OpenAI-compatible endpoint (openAiCompatible())', () => openAiCompatible());

import { describeRouteChannel } from '../test-support/describe-route-channel.js';
import { webChat } from './web-chat-channel.js';

describeRouteChannel('the web chat (webChat())', () => webChat());

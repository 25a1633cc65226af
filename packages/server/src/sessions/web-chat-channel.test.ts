import { describeRouteChannel } from '../conformance/index.js';
import { webChat } from './web-chat-channel.js';

describeRouteChannel('the web chat (webChat())', () => webChat());

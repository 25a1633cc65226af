import { type MessengerChannelOptions, MessengerPlatformChannel } from './messenger-platform-channel.js';

/**
 * Facebook Messenger (docs/channels.md, "Messenger and Instagram"): a Page's conversations through
 * the Send API and Meta's webhook (`object: "page"`). Options up to 3 go out as postback buttons, up
 * to 13 as quick replies (titles up to 20 characters), more as a numbered list; texts up to 2,000
 * characters a message; files both ways; seen and typing.
 */
export class MessengerChannel extends MessengerPlatformChannel {
  constructor(options: MessengerChannelOptions) {
    super(
      {
        platform: 'messenger',
        label: 'Messenger',
        object: 'page',
        capabilities: {
          buttons: { max: 13, labelLength: 20 },
          textLength: 2000,
          files: { receive: true, send: true },
          typing: true,
        },
        buttonTemplate: true,
      },
      options,
    );
  }
}

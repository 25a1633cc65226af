import { type MessengerChannelOptions, MessengerPlatformChannel } from './messenger-platform-channel.js';

/**
 * Instagram direct messages of a professional account linked to a Facebook Page (docs/channels.md,
 * "Messenger and Instagram"), through the Messenger Platform's Send API and Meta's webhook
 * (`object: "instagram"`). Options up to 13 go out as quick replies (titles up to 20 characters), more
 * as a numbered list; texts up to 1,000 characters a message; files from the user only (Instagram
 * takes media to send by public URL, which the server does not publish); seen and typing.
 */
export class InstagramChannel extends MessengerPlatformChannel {
  constructor(options: MessengerChannelOptions) {
    super(
      {
        platform: 'instagram',
        label: 'Instagram',
        object: 'instagram',
        capabilities: {
          buttons: { max: 13, labelLength: 20 },
          textLength: 1000,
          files: { receive: true, send: false },
          typing: true,
        },
        buttonTemplate: false,
      },
      options,
    );
  }
}

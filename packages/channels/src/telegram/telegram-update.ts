/** The parts of a Telegram `Update` the channel reads (https://core.telegram.org/bots/api#update). */
export interface TelegramUpdate {
  update_id: number;
  message?: {
    message_id: number;
    chat: { id: number };
    from?: { id: number };
    text?: string;
    caption?: string;
    document?: { file_id: string; file_name?: string; mime_type?: string };
    photo?: { file_id: string }[];
    voice?: { file_id: string; mime_type?: string };
    audio?: { file_id: string; file_name?: string; mime_type?: string };
    video?: { file_id: string; file_name?: string; mime_type?: string };
    sticker?: { file_id: string; is_animated?: boolean; is_video?: boolean; emoji?: string };
    location?: { latitude: number; longitude: number };
    venue?: { title?: string; address?: string };
    contact?: { first_name?: string; last_name?: string };
  };
  callback_query?: {
    id: string;
    from: { id: number };
    data?: string;
    message?: { message_id: number; chat: { id: number } };
  };
}

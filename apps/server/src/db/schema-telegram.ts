/** The Telegram bot's tables; see the 0049 migration. */
export interface TelegramLinksTable {
  user_id: string;
  telegram_user_id: string;
  chat_id: string;
  display_name: string;
  folder_id: string;
  linked_at: number;
}

export interface TelegramLinkCodesTable {
  code_hash: string;
  user_id: string;
  expires_at: number;
}

export interface TelegramPollerTable {
  id: string;
  owner: string;
  lease_until: number;
  update_offset: number;
  bot_username: string;
}

export interface TelegramUpdatesTable {
  update_id: number;
  handled_at: number;
}

export interface TelegramTasksTable {
  task_id: string;
  user_id: string;
  created_at: number;
}

export interface TelegramInboxTable {
  update_id: number;
  /** The update as Telegram posted it (JSON). */
  body: string;
  received_at: number;
}

export type { MessageEntry, MessageTable, ParamNames, ParamValue } from '../../shared/messages/catalogTypes';

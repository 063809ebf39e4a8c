// antd-mobile's picker in a chunk of its own, loaded on its first opening (OnFirstOpen): its popup
// brings react-spring; by import() of antd-mobile's barrel it would bring every component.
export { Picker } from 'antd-mobile';

/** The authenticated identity of a request, as kube-apiserver's user.Info. */
export interface UserInfo {
  username: string;
  uid?: string;
  groups: string[];
}

import { hasPermission } from '../access-control.js';
import {
  addVolume,
  getVolume,
  removeVolume,
  requireNode,
  requireStorage,
  storageAvail,
  type ClusterState,
  type SimNode,
  type Volume,
} from '../cluster-state.js';
import { PveError, TaskError, die, paramError } from '../pve-error.js';
import { requirePrivilege, startTask, type Route } from '../sim-core.js';
import { assertSpace } from '../vm-disks.js';
import { NODE, OPTIONAL_STRING, STORAGE } from './common-params.js';

const CONTENT_TYPES = ['images', 'rootdir', 'iso', 'vztmpl', 'backup', 'snippets', 'import'];
const UPLOAD_EXTENSIONS: Record<string, RegExp> = {
  iso: /\.(iso|img)$/i,
  vztmpl: /\.tar\.(gz|xz|zst)$/i,
  import: /\.(ova|qcow2|vmdk|raw|img)$/i,
};

export function storageRoutes(): Route[] {
  return [
    {
      method: 'GET',
      path: '/nodes/:node/storage',
      params: {
        properties: {
          node: NODE,
          content: OPTIONAL_STRING,
          storage: OPTIONAL_STRING,
          enabled: { type: 'boolean', optional: true },
        },
      },
      handler: (core, req) => {
        const node = requireNode(core.state, req.params.node as string);
        const content = req.params.content as string | undefined;
        return node.storages
          .filter((s) => content === undefined || s.content.includes(content))
          .filter(
            (s) =>
              hasPermission(req.identity, `/storage/${s.id}`, 'Datastore.Audit') ||
              hasPermission(req.identity, `/storage/${s.id}`, 'Datastore.AllocateSpace'),
          )
          .map((s) => ({ storage: s.id, ...storageStatus(core.state, node, s.id) }));
      },
    },
    {
      method: 'GET',
      path: '/nodes/:node/storage/:storage/status',
      params: { properties: { node: NODE, storage: STORAGE } },
      handler: (core, req) => {
        const node = requireNode(core.state, req.params.node as string);
        requirePrivilege(
          req,
          `/storage/${req.params.storage as string}`,
          'Datastore.Audit',
          'Datastore.AllocateSpace',
        );
        return storageStatus(core.state, node, req.params.storage as string);
      },
    },
    {
      method: 'GET',
      path: '/nodes/:node/storage/:storage/content',
      params: {
        properties: {
          node: NODE,
          storage: STORAGE,
          content: { type: 'string', optional: true, enum: CONTENT_TYPES },
          vmid: { type: 'integer', optional: true },
        },
      },
      handler: (core, req) => {
        const node = requireNode(core.state, req.params.node as string);
        const sid = req.params.storage as string;
        requireStorage(node, sid);
        requirePrivilege(req, `/storage/${sid}`, 'Datastore.Audit', 'Datastore.AllocateSpace');
        const content = req.params.content as string | undefined;
        const vmid = req.params.vmid as number | undefined;
        return Object.values(core.state.volumes)
          .filter((v) => v.node === node.name && v.storage === sid)
          .filter((v) => content === undefined || v.content === content)
          .filter((v) => vmid === undefined || v.vmid === vmid)
          .sort((a, b) => a.volid.localeCompare(b.volid))
          .map(contentEntry);
      },
    },
    {
      method: 'DELETE',
      path: '/nodes/:node/storage/:storage/content/:volume',
      params: {
        properties: {
          node: NODE,
          storage: STORAGE,
          volume: { type: 'string' },
          delay: { type: 'integer', optional: true },
        },
      },
      handler: (core, req) => {
        const node = requireNode(core.state, req.params.node as string);
        const sid = req.params.storage as string;
        const raw = req.params.volume as string;
        const volid = raw.includes(':') ? raw : `${sid}:${raw}`;
        requirePrivilege(req, `/storage/${sid}`, 'Datastore.Allocate', 'Datastore.AllocateSpace');
        const volume = getVolume(core.state, node.name, volid);
        if (!volume) throw die(`volume '${volid}' does not exist`);
        return startTask(core, req, {
          node: node.name,
          type: 'imgdel',
          // pve-storage names the task after the owner and the storage, not the volume.
          id: volume.vmid !== undefined ? `${volume.vmid}@${sid}` : sid,
          work: (log) => {
            if (volume.protected) throw new TaskError(`unable to remove protected backup '${volid}'`);
            const user = Object.values(core.state.vms).find(
              (vm) =>
                vm.node === node.name && Object.values(vm.config).some((c) => c.split(',')[0] === volid),
            );
            if (user)
              throw new TaskError(
                `unable to delete '${volid}' - volume is still in use (referenced by VM ${user.vmid})`,
              );
            removeVolume(core.state, node.name, volid);
            log(`Removed volume '${volid}'`);
          },
        });
      },
    },
    {
      method: 'POST',
      path: '/nodes/:node/storage/:storage/upload',
      multipart: true,
      params: {
        properties: {
          node: NODE,
          storage: STORAGE,
          content: { type: 'string', enum: ['iso', 'vztmpl', 'import'] },
          filename: { type: 'string', maxLength: 255 },
          checksum: OPTIONAL_STRING,
          'checksum-algorithm': {
            type: 'string',
            optional: true,
            enum: ['md5', 'sha1', 'sha224', 'sha256', 'sha384', 'sha512'],
          },
          tmpfilename: OPTIONAL_STRING,
        },
      },
      handler: (core, req) => {
        const node = requireNode(core.state, req.params.node as string);
        const sid = req.params.storage as string;
        const storage = requireStorage(node, sid);
        requirePrivilege(req, `/storage/${sid}`, 'Datastore.AllocateTemplate');
        const content = req.params.content as string;
        if (!storage.content.includes(content))
          throw paramError({ storage: `storage '${sid}' does not support '${content}' content` });
        const upload = req.upload;
        if (!upload) throw paramError({ filename: 'missing file content' });
        const filename = upload.filename.replace(/^.*[\\/]/, '');
        if (!/^[\w\-.+]+$/.test(filename) || filename.startsWith('.'))
          throw paramError({ filename: `invalid filename '${filename}'` });
        if (!(UPLOAD_EXTENSIONS[content] ?? /./).test(filename))
          throw paramError({ filename: 'wrong file extension' });
        const dir = content === 'iso' ? 'iso' : content === 'vztmpl' ? 'vztmpl' : 'import';
        const volid = `${sid}:${dir}/${filename}`;
        const existing = getVolume(core.state, node.name, volid);
        assertSpaceOrFail(core.state, node, sid, upload.data.length - (existing?.size ?? 0), filename);
        return startTask(core, req, {
          node: node.name,
          type: 'imgcopy',
          id: '',
          work: (log) => {
            log(`starting file import from: /var/tmp/pveupload-${Date.now().toString(16)}`);
            log(`target node: ${node.name}`);
            log(`target file: /var/lib/vz/template/${dir}/${filename}`);
            log(`file size is: ${upload.data.length}`);
            addVolume(core.state, {
              volid,
              node: node.name,
              storage: sid,
              content: content as Volume['content'],
              format: content === 'iso' ? 'iso' : (filename.split('.').pop() ?? 'raw'),
              size: upload.data.length,
              ctime: Math.floor(Date.now() / 1000),
              dataBase64: upload.data.toString('base64'),
            });
            log(`finished file import successfully`);
          },
        });
      },
    },
  ];
}

function assertSpaceOrFail(
  state: ClusterState,
  node: SimNode,
  sid: string,
  bytes: number,
  name: string,
): void {
  try {
    assertSpace(state, node.name, sid, Math.max(0, bytes), name);
  } catch (e: unknown) {
    throw new PveError(500, `import failed: ${e instanceof Error ? e.message : String(e)}`);
  }
}

function storageStatus(state: ClusterState, node: SimNode, sid: string) {
  const s = requireStorage(node, sid);
  const avail = storageAvail(state, node.name, s);
  const used = s.totalBytes - avail;
  return {
    type: s.type,
    content: s.content.join(','),
    active: 1,
    enabled: 1,
    shared: s.shared ? 1 : 0,
    total: s.totalBytes,
    used,
    avail,
    used_fraction: s.totalBytes ? used / s.totalBytes : 0,
  };
}

function contentEntry(v: Volume) {
  return {
    volid: v.volid,
    content: v.content,
    format: v.format,
    size: v.size,
    ctime: v.ctime,
    ...(v.vmid !== undefined ? { vmid: v.vmid } : {}),
    ...(v.content === 'backup' ? { subtype: 'qemu' } : {}),
    ...(v.notes !== undefined ? { notes: v.notes } : {}),
    ...(v.protected ? { protected: 1 } : {}),
  };
}

#!/usr/bin/env python3
"""Independent counts for Source studio models (.mdl + .vvd + .vtx), for checking bspview's
decoders (tests/maps/source_models_test.cpp). Written from the Source SDK 2013 headers
(public/studio.h: studiohdr_t, mstudiobone_t 216 bytes, mstudioseqdesc_t 212, mstudiotexture_t
64, mstudiobodyparts_t 16, mstudiomodel_t 148, mstudiomesh_t 116, vertexFileHeader_t;
public/optimize.h, pack(1): the .vtx headers), not from bspview's C++.

Per LOD it prints (distinct origMeshVertID the triangles use summed over meshes, triangles of
the triangle-list strips, strip-group vertex entries). Usage:
    tools/source_model_counts.py ../shared/models/source/wire/models/holograms/hq_torus.mdl
"""
import struct, sys, os
def i32(b,o): return struct.unpack_from('<i',b,o)[0]
def cstr(b,o):
    e=b.index(b'\0',o); return b[o:e].decode('latin1')
def mdl(path):
    b=open(path,'rb').read()
    r={'id':b[:4],'version':i32(b,4),'checksum':i32(b,8),'name':cstr(b,12)}
    nb,bi=i32(b,156),i32(b,160)
    r['bones']=[(cstr(b,bi+k*216+i32(b,bi+k*216)),i32(b,bi+k*216+4)) for k in range(nb)]
    ns,si=i32(b,188),i32(b,192)
    r['seqs']=[cstr(b,si+k*212+i32(b,si+k*212+4)) for k in range(ns)]
    nt,ti=i32(b,204),i32(b,208)
    r['textures']=[cstr(b,ti+k*64+i32(b,ti+k*64)) for k in range(nt)]
    nc,ci=i32(b,212),i32(b,216)
    r['cd']=[cstr(b,i32(b,ci+4*k)) for k in range(nc)]
    nref,nfam,ski=i32(b,220),i32(b,224),i32(b,228)
    r['skins']=[list(struct.unpack_from('<%dh'%nref,b,ski+f*nref*2)) for f in range(nfam)]
    nbp,bpi=i32(b,232),i32(b,236)
    parts=[]
    for p in range(nbp):
        o=bpi+p*16
        name=cstr(b,o+i32(b,o)); nm,base,mi=i32(b,o+4),i32(b,o+8),i32(b,o+12)
        models=[]
        for m in range(nm):
            mo=o+mi+m*148
            nme,mei,nv,vi=i32(b,mo+72),i32(b,mo+76),i32(b,mo+80),i32(b,mo+84)
            meshes=[]
            for k in range(nme):
                so=mo+mei+k*116
                meshes.append({'material':i32(b,so),'nv':i32(b,so+8),'voff':i32(b,so+12),
                               'lodv':list(struct.unpack_from('<8i',b,so+52))})
            models.append({'name':cstr(b,mo),'nv':nv,'vi':vi,'meshes':meshes})
        parts.append({'name':name,'base':base,'models':models})
    r['parts']=parts
    return r
def vvd(path):
    b=open(path,'rb').read()
    h=struct.unpack_from('<4i8i4i',b,0)
    return {'id':b[:4],'version':h[1],'checksum':h[2],'numlods':h[3],'lodv':list(h[4:12]),
            'nfix':h[12],'fix':[struct.unpack_from('<3i',b,h[13]+12*k) for k in range(h[12])],'vstart':h[14],'tstart':h[15],'size':len(b)}
def vtx(path, extended=False):
    b=open(path,'rb').read()
    ver,cache,mbs,mbt,mbv,chk,nlods,mrl,nbp,bpo=struct.unpack_from('<iiHHiiiiii',b,0)
    sgsize=33 if extended else 25; ssize=35 if extended else 27
    out={'version':ver,'checksum':chk,'numlods':nlods,'parts':[]}
    for p in range(nbp):
        po=bpo+p*8; nm,mo=struct.unpack_from('<ii',b,po)
        models=[]
        for m in range(nm):
            mmo=po+mo+m*8; nl,lo=struct.unpack_from('<ii',b,mmo)
            lods=[]
            for l in range(nl):
                lso=mmo+lo+l*12; nmesh,meo,sw=struct.unpack_from('<iif',b,lso)
                meshes=[]
                for k in range(nmesh):
                    mso=lso+meo+k*9; nsg,sgo,fl=struct.unpack_from('<iiB',b,mso)
                    verts=set(); tris=0; nvtx=0
                    for g in range(nsg):
                        go=mso+sgo+g*sgsize
                        nv,vo,ni,io,ns,so,gf=struct.unpack_from('<iiiiiiB',b,go)
                        vids=[struct.unpack_from('<H',b,go+vo+9*v+4)[0] for v in range(nv)]
                        idx=struct.unpack_from('<%dH'%ni,b,go+io)
                        nvtx+=nv
                        for s in range(ns):
                            st=go+so+s*ssize
                            sni,sio,snv,svo,snb,sfl=struct.unpack_from('<iiiihB',b,st)
                            assert sfl&1, sfl
                            for t in range(0,sni,3):
                                tris+=1
                                for c in range(3): verts.add(vids[idx[sio+t+c]])
                    meshes.append({'tris':tris,'verts':verts,'nvtx':nvtx})
                lods.append({'switch':sw,'meshes':meshes})
            models.append(lods)
        out['parts'].append(models)
    return out
if __name__=='__main__':
    base=sys.argv[1][:-4]
    m=mdl(base+'.mdl'); v=vvd(base+'.vvd')
    print(os.path.basename(base),'v',m['version'],'chk',m['checksum'],v['checksum'],'bones',len(m['bones']),'seqs',m['seqs'])
    print(' bones',m['bones'])
    print(' textures',m['textures'],'cd',m['cd'])
    print(' skins',len(m['skins']),'x',len(m['skins'][0]) if m['skins'] else 0, m['skins'])
    print(' vvd lods',v['numlods'],v['lodv'],'fixups',v['nfix'],v['fix'][:6],'vstart',v['vstart'],'tstart',v['tstart'],'size',v['size'])
    for ext in ('.dx90.vtx','.dx80.vtx','.sw.vtx'):
        if not os.path.exists(base+ext): continue
        x=vtx(base+ext)
        print(' ',ext,'chk',x['checksum'],'lods',x['numlods'])
        for p,(mp,xp) in enumerate(zip(m['parts'],x['parts'])):
            print('  part',p,mp['name'],'base',mp['base'],'models',len(mp['models']))
            for mi,(mm,xm) in enumerate(zip(mp['models'],xp)):
                s=[]
                for l,lod in enumerate(xm):
                    vs=sum(len(me['verts']) for me in lod['meshes']); ts=sum(me['tris'] for me in lod['meshes'])
                    s.append((vs,ts,sum(me['nvtx'] for me in lod['meshes'])))
                print('   model',mi,repr(mm['name']),'nv',mm['nv'],'meshes',[(me['material'],me['nv'],me['voff'],me['lodv'][:v['numlods']]) for me in mm['meshes']],'lods(verts,tris,vtxverts)',s)
        if ext!='.dx90.vtx': pass

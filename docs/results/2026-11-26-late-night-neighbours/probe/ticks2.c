#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sched.h>
static double duty; static volatile int stop;
static double now(){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec/1e9;}
static void* burn(void*a){unsigned s=(unsigned)(long)a;while(!stop){double t=now();if(rand_r(&s)/(double)RAND_MAX<duty){while(now()-t<0.002);}else usleep(2000);}return 0;}
static void cpus(int n,long*busy,long*tot){FILE*f=fopen("/proc/stat","r");char l[512];*busy=*tot=0;while(fgets(l,512,f)){int c;long u,ni,sy,id,io,irq,sirq,st;if(sscanf(l,"cpu%d %ld %ld %ld %ld %ld %ld %ld %ld",&c,&u,&ni,&sy,&id,&io,&irq,&sirq,&st)==9&&c<n){*busy+=u+ni+sy+irq+sirq+st;*tot+=u+ni+sy+id+io+irq+sirq+st;}}fclose(f);}
static long own(){FILE*f=fopen("/proc/self/stat","r");char b[2048];fgets(b,2048,f);fclose(f);char*p=strrchr(b,')')+2;long v[20];int i=0;char*t=strtok(p," ");while(t&&i<20){v[i++]=atol(t);t=strtok(0," ");}return v[11]+v[12];}
int main(int c,char**v){duty=atof(v[1]);int n=atoi(v[2]);double secs=atof(v[3]);pthread_t th[8];for(long i=0;i<n;i++)pthread_create(&th[i],0,burn,(void*)(i+1));
 long b0,t0,o0;cpus(n,&b0,&t0);o0=own();int hist[41]={0};int cnt=0;double sum=0,summax=0;int last[3]={0};
 for(double e=now()+secs;now()<e;){usleep(250000);long b,t,o;cpus(n,&b,&t);o=own();int d=(int)((b-b0)-(o-o0));if(d>=-20&&d<=20)hist[d+20]++;sum+=d;last[cnt%3]=d;cnt++;if(cnt>=3){int m=last[0];if(last[1]>m)m=last[1];if(last[2]>m)m=last[2];summax+=m;}b0=b;t0=t;o0=o;}
 stop=1;printf("duty %.1f cpus %d n %d mean %.2f maxof3 %.2f\n",duty,n,cnt,sum/cnt,summax/(cnt-2));for(int i=0;i<41;i++)if(hist[i])printf(" %d:%d",i-20,hist[i]);printf("\n");}
